/**
 * The one per-client-IP limit of the keyless routes (market health, the web terminal): a
 * per-minute allowance through the RateLimiter port, keyed `<scope>ip:<address>` so each
 * surface has its own (`::ffff:1.2.3.4` and `1.2.3.4` are one client). No monthly cap and no
 * quota headers; a refusal is the usual 429 envelope with Retry-After.
 */
import type { Clock } from '../domain/clock.ts';
import { ApiError } from '../domain/errors.ts';
import type { RateLimiter } from './rate-limiter.ts';

export interface IpGateOptions {
  limiter: RateLimiter;
  clock: Clock;
  perMinute: number;
  /** Key prefix of the surface (`''` for health, `'terminal:'`). */
  scope: string;
  /** Named in the refusal: `Too many <what> requests from this IP`. */
  what: string;
  onRefused?: () => void;
}

export function clientIpKey(ip: string, scope = ''): string {
  const mapped = ip.toLowerCase().startsWith('::ffff:') && ip.includes('.');
  return `${scope}ip:${mapped ? ip.slice(7) : ip}`;
}

/** Resolves when the client at `ip` has allowance left this minute, else throws the 429. */
export function ipGate(options: IpGateOptions): (ip: string) => Promise<void> {
  const limits = { perMinute: options.perMinute, monthly: null };
  return async (ip) => {
    const key = clientIpKey(ip, options.scope);
    const decision = await options.limiter.consume(key, limits, options.clock.now());
    if (decision.allowed) return;
    options.onRefused?.();
    throw new ApiError(
      429,
      'RATE_LIMITED',
      `Too many ${options.what} requests from this IP (limit ${limits.perMinute} per minute)`,
      { 'Retry-After': decision.retryAfterSeconds ?? decision.minute.resetSeconds },
    );
  };
}
