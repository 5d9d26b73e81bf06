/**
 * The terminal's keyless gate: a per-client-IP limit on the terminal's own JSON routes (default
 * 120 requests a minute, `--terminal-per-minute`), through the same RateLimiter port as health
 * but its own keys (`terminal:ip:<address>`), so browsing never eats the health allowance. A
 * refusal is the usual 429 envelope with Retry-After; no quota headers (nothing is metered).
 */
import type { FastifyRequest } from 'fastify';
import { ApiError } from '../domain/errors.ts';
import type { Game } from '../domain/games.ts';
import type { AppDeps } from '../http/deps.ts';
import { healthClientKey } from '../http/plugins/health-limit.ts';
import { gameFromQuery } from '../http/plugins/key-gate.ts';

export const DEFAULT_TERMINAL_PER_MINUTE = 120;

export function terminalClientKey(ip: string): string {
  return `terminal:${healthClientKey(ip)}`;
}

export function terminalPerMinute(deps: AppDeps): number {
  return deps.terminalPerMinute ?? DEFAULT_TERMINAL_PER_MINUTE;
}

/** onRequest hook: the per-IP limit, then the `game` query parameter (400 when missing). */
export function terminalGate(deps: AppDeps, options: { game: boolean }) {
  const limits = { perMinute: terminalPerMinute(deps), monthly: null };
  return async (request: FastifyRequest): Promise<void> => {
    const decision = await deps.healthLimiter.consume(
      terminalClientKey(request.ip),
      limits,
      deps.clock.now(),
    );
    if (!decision.allowed) {
      const retryAfter = decision.retryAfterSeconds ?? decision.minute.resetSeconds;
      throw new ApiError(
        429,
        'RATE_LIMITED',
        `Too many terminal requests from this IP (limit ${limits.perMinute} per minute)`,
        { 'Retry-After': retryAfter },
      );
    }
    request.game = options.game ? gameFromQuery(request) : ('cs2' satisfies Game);
  };
}
