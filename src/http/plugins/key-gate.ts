/**
 * The key-gated pipeline, as one onRequest hook per route (so it runs before body parsing and
 * parameter validation): authenticate → plan gate → quota → `game` (on /v2).
 * - 401/403 from authentication spend no quota and carry no quota headers (no usable account).
 * - A plan-gate 403 counts as one request and carries the quota headers; it wins over a 429.
 * - From the quota step on, every response (200, 400, 404, 429, 500…) carries the headers.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { IncomingMessage } from 'node:http';
import type { QuotaDecision } from '../../access/rate-limiter.ts';
import { ApiError, badRequest } from '../../domain/errors.ts';
import { GAMES, isGame, type Game } from '../../domain/games.ts';
import { sentence } from '../../domain/parameter-sentences.ts';
import type { Feature } from '../../domain/plans.ts';
import type { AppDeps, AuthResult, AuthSuccess } from '../deps.ts';
import {
  authenticateInProcess,
  consumeInProcess,
  gameSwitchedOff,
  planRefusal,
} from './gate-steps.ts';

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

export function quotaRefusal(decision: QuotaDecision): ApiError {
  const window = decision.refusedBy === 'month' ? decision.month : decision.minute;
  const retryAfter = decision.retryAfterSeconds ?? window?.resetSeconds ?? 60;
  const message = decision.refusedBy === 'month' ? MONTH_LIMIT_MESSAGE : MINUTE_LIMIT_MESSAGE;
  return new ApiError(429, 'RATE_LIMITED', message, { 'Retry-After': retryAfter });
}

export const GAME_RETRY_SECONDS = 60;

/** 503 for `/v2` reads of a game an operator disabled (after auth, plan and quota). */
export function gameUnavailable(game: Game): ApiError {
  return new ApiError(
    503,
    'UNAVAILABLE',
    `Reads for game ${game} are temporarily disabled; retry later`,
    { 'Retry-After': GAME_RETRY_SECONDS },
  );
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

/** Hands each quota header of a decision to `set`, in the order they are sent. */
export function eachQuotaHeader(
  decision: QuotaDecision,
  set: (name: string, value: number) => void,
): void {
  set('x-ratelimit-limit', decision.minute.limit);
  set('x-ratelimit-remaining', decision.minute.remaining);
  set('x-ratelimit-reset', decision.minute.resetSeconds);
  if (!decision.month) return;
  set('x-ratelimit-limit-month', decision.month.limit);
  set('x-ratelimit-remaining-month', decision.month.remaining);
  set('x-ratelimit-reset-month', decision.month.resetSeconds);
}

/** Sets the quota headers one by one (no header object per request). */
export function setQuotaHeaders(reply: FastifyReply, decision: QuotaDecision): void {
  eachQuotaHeader(decision, (name, value) => reply.header(name, value));
}

/** What a gate decided before Fastify saw the request: the fast path's refused reads. */
export interface HandedGate {
  auth: AuthSuccess;
  decision: QuotaDecision;
}

const HANDED = Symbol('handed key gate');

type WithHanded = IncomingMessage & { [HANDED]?: HandedGate };

/**
 * Hands a spent quota decision to the route's key gate, so the request is not counted twice.
 * The decision is copied: the in-process limiter reuses its object on the next call.
 */
export function handGate(raw: IncomingMessage, auth: AuthSuccess, decision: QuotaDecision): void {
  const month = decision.month ? { ...decision.month } : null;
  (raw as WithHanded)[HANDED] = {
    auth,
    decision: { ...decision, minute: { ...decision.minute }, month },
  };
}

function takeHandedGate(raw: IncomingMessage): HandedGate | undefined {
  const handed = (raw as WithHanded)[HANDED];
  if (handed !== undefined) (raw as WithHanded)[HANDED] = undefined;
  return handed;
}

/** What the fast path needs to run a route's gate itself (read from the route's onRequest). */
export interface GateSpec {
  feature: Feature;
  source: GameSource;
}

const GATE_SPEC = Symbol('key gate spec');

export function gateSpecOf(hook: unknown): GateSpec | undefined {
  return typeof hook === 'function' ? (hook as { [GATE_SPEC]?: GateSpec })[GATE_SPEC] : undefined;
}

function authenticated(auth: AuthResult): AuthSuccess {
  if (!auth.ok) throw new ApiError(auth.status, auth.code, auth.message);
  return auth;
}

/**
 * A callback hook, so a cached key under the in-process limiter passes without a promise or
 * an object of its own (`authenticateNow`, `consumeNow`); anything else takes the async path.
 */
export function keyGate(deps: AppDeps, feature: Feature, source: GameSource) {
  const admit = (request: FastifyRequest, reply: FastifyReply, decision: QuotaDecision) => {
    const auth = request.auth!;
    setQuotaHeaders(reply, decision);
    const refusal = planRefusal(deps, auth, feature);
    if (refusal) throw refusal;
    if (!decision.allowed) {
      deps.metrics?.quotaRefused(auth.plan, decision.refusedBy === 'month' ? 'month' : 'minute');
      throw quotaRefusal(decision);
    }
    request.game = resolveGame(request, source);
    if (gameSwitchedOff(deps, source === 'query', request.game))
      throw gameUnavailable(request.game);
  };
  const slowPath = async (
    request: FastifyRequest,
    reply: FastifyReply,
    now: number,
    known: AuthResult | null,
  ): Promise<void> => {
    const header = request.headers.authorization;
    const auth = authenticated(
      known ?? (await deps.authenticator.authenticate(header, request.ip, now)),
    );
    request.auth = auth;
    const decision =
      (known ? null : consumeInProcess(deps, auth, now)) ??
      (await deps.limiter.consume(auth.account.id, auth.limits, now));
    admit(request, reply, decision);
  };

  const pass = (
    request: FastifyRequest,
    reply: FastifyReply,
    done: (error?: Error) => void,
    auth: AuthResult,
    decision: QuotaDecision,
  ): void => {
    try {
      request.auth = authenticated(auth);
      admit(request, reply, decision);
      done();
    } catch (error) {
      done(error as Error);
    }
  };

  const hook = (request: FastifyRequest, reply: FastifyReply, done: (error?: Error) => void) => {
    const handed = takeHandedGate(request.raw);
    if (handed !== undefined) return pass(request, reply, done, handed.auth, handed.decision);
    const now = deps.clock.now();
    const header = request.headers.authorization;
    const auth = authenticateInProcess(deps, header, request.ip, now);
    const decision = auth?.ok ? consumeInProcess(deps, auth, now) : null;
    if (auth?.ok && decision === null) {
      slowPath(request, reply, now, auth).then(() => done(), done);
      return;
    }
    if (auth === null) {
      slowPath(request, reply, now, null).then(() => done(), done);
      return;
    }
    pass(request, reply, done, auth, decision!);
  };
  return Object.assign(hook, { [GATE_SPEC]: { feature, source } });
}
