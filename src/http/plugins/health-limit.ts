/**
 * The keyless gate for market health: a per-client-IP limit (default 60 a minute, through the
 * same RateLimiter port keyed `ip:<address>`) and, on /v2, the `game` check. It sends no quota
 * headers; a refusal is the usual 429 envelope with Retry-After.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../../domain/errors.ts';
import type { AppDeps } from '../deps.ts';
import { resolveGame, type GameSource } from './key-gate.ts';

export const DEFAULT_HEALTH_PER_MINUTE = 60;

/** `::ffff:1.2.3.4` and `1.2.3.4` are one client. */
export function healthClientKey(ip: string): string {
  return `ip:${ip.toLowerCase().startsWith('::ffff:') && ip.includes('.') ? ip.slice(7) : ip}`;
}

export function healthGate(deps: AppDeps, source: GameSource) {
  const limits = { perMinute: deps.healthPerMinute ?? DEFAULT_HEALTH_PER_MINUTE, monthly: null };
  return async (request: FastifyRequest, _reply: FastifyReply): Promise<void> => {
    const decision = await deps.healthLimiter.consume(
      healthClientKey(request.ip),
      limits,
      deps.clock.now(),
    );
    if (!decision.allowed) {
      deps.metrics?.healthRefused();
      const retryAfter = decision.retryAfterSeconds ?? decision.minute.resetSeconds;
      throw new ApiError(
        429,
        'RATE_LIMITED',
        `Too many health requests from this IP (limit ${limits.perMinute} per minute)`,
        { 'Retry-After': retryAfter },
      );
    }
    request.game = resolveGame(request, source);
  };
}
