/**
 * Picks the quota limiters: per-account quotas and the keyless health endpoint's per-IP limit.
 * Without REDIS_URL both are in-process memory limiters (one process). With it both are Redis
 * limiters shared by every API process (one connection, keys under `<prefix>quota:` and
 * `<prefix>health:`), each wrapped in the fail-open policy of resilient-rate-limiter.ts: while
 * Redis is unreachable each process enforces the same limits locally.
 *
 * Given a usage store (the access store), monthly quota usage is durable: a ledger
 * (monthly-usage-ledger.ts) records every admitted request under a monthly cap and writes the
 * counts every MONTHLY_USAGE_FLUSH_MS. The memory limiter starts each account's month from it; the
 * Redis limiter recreates a missing month key from it and, after each write, raises counters that
 * are below the stored totals. Requests admitted by the local fallback are recorded too, and the
 * fallback's month starts from the larger of the last figure Redis gave and the ledger's total,
 * never from zero.
 */
import type { Redis } from 'ioredis';
import { createMemoryRateLimiter } from '../access/memory-rate-limiter.ts';
import { createMonthlyUsageLedger } from '../access/monthly-usage-ledger.ts';
import type { MonthlyUsageLedger } from '../access/monthly-usage-ledger.ts';
import type { MonthlyUsageStore } from '../access/monthly-usage.ts';
import type { RateLimiter } from '../access/rate-limiter.ts';
import { createRedisRateLimiter } from '../access/redis-rate-limiter.ts';
import { createResilientLimiter, type ResilienceLogger } from '../access/resilient-rate-limiter.ts';
import { closeRedis, openRedis } from '../events/redis-support.ts';

export interface QuotaLimiters {
  limiter: RateLimiter;
  healthLimiter: RateLimiter;
  close(): Promise<void>;
}

/** How long a process stays on its local limiter before probing Redis again. */
export const QUOTA_RETRY_MS = 1_000;

/** How often each process writes its monthly usage counts to the store. */
export const MONTHLY_USAGE_FLUSH_MS = 1_000;

export interface QuotaConfig {
  redisUrl: string | null;
  redisPrefix: string;
}

function shared(
  redis: Redis,
  prefix: string,
  logger: ResilienceLogger,
  ledger: MonthlyUsageLedger | null,
): RateLimiter {
  const monthLedger = ledger ?? undefined;
  const primary = createRedisRateLimiter({ redis, prefix, monthLedger });
  ledger?.onWritten((totals) => primary.raiseMonthCounters(totals));
  return createResilientLimiter({
    primary,
    fallback: createMemoryRateLimiter({ monthLedger, seedMonths: monthLedger !== undefined }),
    logger,
    retryAfterMs: QUOTA_RETRY_MS,
  });
}

function usageLedger(store: MonthlyUsageStore | undefined, logger: ResilienceLogger) {
  if (!store) return null;
  const ledger = createMonthlyUsageLedger({ store, flushEveryMs: MONTHLY_USAGE_FLUSH_MS, logger });
  ledger.start();
  return ledger;
}

export function createQuotaLimiters(
  config: QuotaConfig,
  logger: ResilienceLogger,
  usageStore?: MonthlyUsageStore,
): QuotaLimiters {
  const ledger = usageLedger(usageStore, logger);
  if (config.redisUrl === null) {
    const limiter = createMemoryRateLimiter({ monthLedger: ledger ?? undefined, seedMonths: true });
    const healthLimiter = createMemoryRateLimiter();
    return {
      limiter,
      healthLimiter,
      close: async () => {
        await Promise.all([limiter.close(), healthLimiter.close()]);
        await ledger?.close();
      },
    };
  }
  // Connection errors repeat on every reconnect attempt; the resilient limiter logs the outage.
  const redis = openRedis(config.redisUrl, { connectionName: 'pricing-quotas' });
  const limiter = shared(redis, `${config.redisPrefix}quota:`, logger, ledger);
  const healthLimiter = shared(redis, `${config.redisPrefix}health:`, logger, null);
  return {
    limiter,
    healthLimiter,
    async close() {
      await Promise.all([limiter.close(), healthLimiter.close()]);
      await ledger?.close();
      await closeRedis(redis);
    },
  };
}
