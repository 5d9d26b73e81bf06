/**
 * The key gate's steps, defined once for the two places that run them: the route hook
 * (key-gate.ts: authenticate → quota → plan → game) and the fast path for cache hits
 * (read-cache/fast-reads.ts: authenticate → plan → game → lookup → quota, so a miss spends
 * nothing). The in-process forms answer null when they cannot decide without I/O.
 */
import type { QuotaDecision } from '../../access/rate-limiter.ts';
import { ApiError } from '../../domain/errors.ts';
import type { Game } from '../../domain/games.ts';
import type { Feature } from '../../domain/plans.ts';
import type { AppDeps, AuthResult, AuthSuccess } from '../deps.ts';

type GateDeps = Pick<AppDeps, 'authenticator' | 'limiter' | 'planGate' | 'gameReads'>;

export function authenticateInProcess(
  deps: GateDeps,
  header: string | undefined,
  ip: string,
  now: number,
): AuthResult | null {
  return deps.authenticator.authenticateNow?.(header, ip, now) ?? null;
}

export function consumeInProcess(
  deps: GateDeps,
  auth: AuthSuccess,
  now: number,
): QuotaDecision | null {
  return deps.limiter.consumeNow?.(auth.account.id, auth.limits, now) ?? null;
}

/** The 403 of a plan without the route's feature, or null. */
export function planRefusal(deps: GateDeps, auth: AuthSuccess, feature: Feature): ApiError | null {
  const refusal = deps.planGate(auth.plan, feature);
  return refusal && new ApiError(refusal.status, refusal.code, refusal.message);
}

/** True when an operator turned off reads of `game` and the route takes it from the query. */
export function gameSwitchedOff(deps: GateDeps, fromQuery: boolean, game: Game): boolean {
  return fromQuery && deps.gameReads?.disabled(game) === true;
}
