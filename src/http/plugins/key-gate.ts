/**
 * The key-gated pipeline, as one onRequest hook per route (so it runs before body parsing and
 * parameter validation): authenticate → plan gate → quota → `game` (on /v2).
 * - 401/403 from authentication spend no quota and carry no quota headers (no usable account).
 * - A plan-gate 403 counts as one request and carries the quota headers; it wins over a 429.
 * - From the quota step on, every response (200, 400, 404, 429, 500…) carries the headers.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { QuotaDecision } from '../../access/rate-limiter.ts';
import { ApiError, badRequest } from '../../domain/errors.ts';
import { GAMES, isGame, type Game } from '../../domain/games.ts';
import { sentence } from '../../domain/parameter-sentences.ts';
import type { Feature } from '../../domain/plans.ts';
import type { AppDeps, AuthSuccess } from '../deps.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the key gate on key-gated routes. */
    auth: AuthSuccess | null;
    /** The game the route serves: cs2 on /v1, the `game` query on /v2. */
    game: Game;
  }
}

export const MINUTE_LIMIT_MESSAGE = 'API key minute rate limit exceeded';
export const MONTH_LIMIT_MESSAGE = 'API key monthly quota exceeded';
export const GAME_MESSAGE = sentence.oneOf('game', GAMES);

/** `fixed` for /v1 (always that game), `query` for /v2 (the required `game` parameter). */
export type GameSource = { fixed: Game } | 'query';

export function quotaHeaders(decision: QuotaDecision): Record<string, number> {
  const headers: Record<string, number> = {
    'X-RateLimit-Limit': decision.minute.limit,
    'X-RateLimit-Remaining': decision.minute.remaining,
    'X-RateLimit-Reset': decision.minute.resetSeconds,
  };
  if (decision.month) {
    headers['X-RateLimit-Limit-Month'] = decision.month.limit;
    headers['X-RateLimit-Remaining-Month'] = decision.month.remaining;
    headers['X-RateLimit-Reset-Month'] = decision.month.resetSeconds;
  }
  return headers;
}

export function quotaRefusal(decision: QuotaDecision): ApiError {
  const window = decision.refusedBy === 'month' ? decision.month : decision.minute;
  const retryAfter = decision.retryAfterSeconds ?? window?.resetSeconds ?? 60;
  const message = decision.refusedBy === 'month' ? MONTH_LIMIT_MESSAGE : MINUTE_LIMIT_MESSAGE;
  return new ApiError(429, 'RATE_LIMITED', message, { 'Retry-After': retryAfter });
}

/** Reads and checks the `game` query parameter (400 when missing or invalid). */
export function gameFromQuery(request: FastifyRequest): Game {
  const game = (request.query as Record<string, unknown> | undefined)?.game;
  if (!isGame(game)) throw badRequest([GAME_MESSAGE]);
  return game;
}

export function resolveGame(request: FastifyRequest, source: GameSource): Game {
  return source === 'query' ? gameFromQuery(request) : source.fixed;
}

export function keyGate(deps: AppDeps, feature: Feature, source: GameSource) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    const now = deps.clock.now();
    const auth = await deps.authenticator.authenticate(
      request.headers.authorization,
      request.ip,
      now,
    );
    if (!auth.ok) throw new ApiError(auth.status, auth.code, auth.message);
    request.auth = auth;
    const refusal = deps.planGate(auth.plan, feature);
    const decision = await deps.limiter.consume(auth.account.id, auth.limits, now);
    reply.headers(quotaHeaders(decision));
    if (refusal) throw new ApiError(refusal.status, refusal.code, refusal.message);
    if (!decision.allowed) {
      deps.metrics?.quotaRefused(auth.plan, decision.refusedBy === 'month' ? 'month' : 'minute');
      throw quotaRefusal(decision);
    }
    request.game = resolveGame(request, source);
  };
}
