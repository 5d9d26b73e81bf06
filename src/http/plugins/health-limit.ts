/**
 * The keyless gate for market health: the per-client-IP limit (access/ip-gate.ts, default 60 a
 * minute, keys `ip:<address>`) and, on /v2, the `game` check.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ipGate } from '../../access/ip-gate.ts';
import type { AppDeps } from '../deps.ts';
import { resolveGame, type GameSource } from './key-gate.ts';

export const DEFAULT_HEALTH_PER_MINUTE = 60;

export function healthGate(deps: AppDeps, source: GameSource) {
  const allow = ipGate({
    limiter: deps.healthLimiter,
    clock: deps.clock,
    perMinute: deps.healthPerMinute ?? DEFAULT_HEALTH_PER_MINUTE,
    scope: '',
    what: 'health',
    onRefused: () => deps.metrics?.healthRefused(),
  });
  return async (request: FastifyRequest, _reply: FastifyReply): Promise<void> => {
    await allow(request.ip);
    request.game = resolveGame(request, source);
  };
}
