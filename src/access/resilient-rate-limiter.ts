/**
 * Failure policy for the shared quota store: fail open onto a local limiter. While the primary
 * (Redis) limiter throws, every decision comes from the fallback (an in-process memory limiter)
 * with the full per-account limits, so each API process enforces the limits on its own: during
 * an outage an account can get at most (number of API processes) × its limits, never unlimited
 * access and never an outage of the API itself. Requests counted locally are not copied into
 * Redis's counters directly; monthly ones reach it through the monthly usage ledger when one is
 * wired (boot/quotas.ts). The fallback's month starts from the last figure the primary gave for
 * the account (every answer lifts it), so `X-RateLimit-Remaining-Month` keeps counting down
 * from where it was instead of restarting at the full allowance. The outage is logged once at error level; the primary is probed again
 * every `retryAfterMs` (on the callers' `now`), and its recovery is logged at info level.
 */
import type { QuotaDecision, QuotaLimits, RateLimiter } from './rate-limiter.ts';

export interface ResilienceLogger {
  error(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
}

export interface ResilientLimiterOptions {
  primary: RateLimiter;
  /** With `raiseMonth`, it learns each account's month usage from the primary's answers. */
  fallback: RateLimiter & { raiseMonth?(accountId: string, now: number, used: number): void };
  logger: ResilienceLogger;
  /** How long to stay on the fallback before trying the primary again. */
  retryAfterMs: number;
}

export interface ResilientLimiter extends RateLimiter {
  /** True while decisions come from the fallback (for health reports). */
  degraded(): boolean;
}

export const OUTAGE_MESSAGE = 'quota store unreachable: falling back to the local limiter';
export const RECOVERY_MESSAGE = 'quota store reachable again: back on the shared limiter';

export function createResilientLimiter(options: ResilientLimiterOptions): ResilientLimiter {
  const { primary, fallback, logger, retryAfterMs } = options;
  let outageSince: number | null = null;
  let nextProbeAt = 0;

  const onPrimaryError = (error: unknown, now: number) => {
    if (outageSince === null) {
      outageSince = now;
      logger.error({ err: error, retryAfterMs }, OUTAGE_MESSAGE);
    }
    nextProbeAt = now + retryAfterMs;
  };

  const onPrimaryAnswer = (now: number) => {
    if (outageSince === null) return;
    logger.info({ outageMs: Math.max(0, now - outageSince) }, RECOVERY_MESSAGE);
    outageSince = null;
  };

  return {
    async consume(accountId: string, limits: QuotaLimits, now: number): Promise<QuotaDecision> {
      if (outageSince !== null && now < nextProbeAt) {
        return fallback.consume(accountId, limits, now);
      }
      let decision: QuotaDecision;
      try {
        decision = await primary.consume(accountId, limits, now);
      } catch (error) {
        onPrimaryError(error, now);
        return fallback.consume(accountId, limits, now);
      }
      onPrimaryAnswer(now);
      const { month } = decision;
      if (month) fallback.raiseMonth?.(accountId, now, month.limit - month.remaining);
      return decision;
    },
    async close() {
      await Promise.all([primary.close(), fallback.close()]);
    },
    degraded: () => outageSince !== null,
  };
}
