/**
 * Picks the quota limiters: per-account quotas and the keyless health endpoint's per-IP limit.
 * Without REDIS_URL both are in-process memory limiters (one process). With it both are Redis
 * limiters shared by every API process (one connection, keys under `<prefix>quota:` and
 * `<prefix>health:`), each wrapped in the fail-open policy of resilient-rate-limiter.ts: while
 * Redis is unreachable each process enforces the same limits locally.
 */
import type { Redis } from 'ioredis';
import { createMemoryRateLimiter } from '../access/memory-rate-limiter.ts';
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

export interface QuotaConfig {
  redisUrl: string | null;
  redisPrefix: string;
}

function shared(redis: Redis, prefix: string, logger: ResilienceLogger): RateLimiter {
  return createResilientLimiter({
    primary: createRedisRateLimiter({ redis, prefix }),
    fallback: createMemoryRateLimiter(),
    logger,
    retryAfterMs: QUOTA_RETRY_MS,
  });
}

export function createQuotaLimiters(config: QuotaConfig, logger: ResilienceLogger): QuotaLimiters {
  if (config.redisUrl === null) {
    const limiter = createMemoryRateLimiter();
    const healthLimiter = createMemoryRateLimiter();
    return {
      limiter,
      healthLimiter,
      close: async () => {
        await Promise.all([limiter.close(), healthLimiter.close()]);
      },
    };
  }
  // Connection errors repeat on every reconnect attempt; the resilient limiter logs the outage.
  const redis = openRedis(config.redisUrl, { connectionName: 'pricing-quotas' });
  const limiter = shared(redis, `${config.redisPrefix}quota:`, logger);
  const healthLimiter = shared(redis, `${config.redisPrefix}health:`, logger);
  return {
    limiter,
    healthLimiter,
    async close() {
      await Promise.all([limiter.close(), healthLimiter.close()]);
      await closeRedis(redis);
    },
  };
}
