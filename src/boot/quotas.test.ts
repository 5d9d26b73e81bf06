import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Redis } from 'ioredis';
import { OUTAGE_MESSAGE } from '../access/resilient-rate-limiter.ts';
import { manualClock } from '../domain/clock.ts';
import {
  deleteKeys,
  inOneRedisMinute,
  needsRedis,
  REDIS_URL,
  testPrefix,
} from '../events/redis-test-support.ts';
import { createQuotaLimiters } from './quotas.ts';

const LIMITS = { perMinute: 3, monthly: null };
const NOW = manualClock('2026-11-20T10:00:10Z').now();

function capture() {
  const lines: { level: string; msg: string }[] = [];
  return {
    lines,
    error: (_: object, msg: string) => void lines.push({ level: 'error', msg }),
    info: (_: object, msg: string) => void lines.push({ level: 'info', msg }),
  };
}

async function admitted(
  limiter: ReturnType<typeof createQuotaLimiters>['limiter'],
  n: number,
  accountId = 'acct-1',
) {
  let count = 0;
  for (let i = 0; i < n; i += 1) {
    if ((await limiter.consume(accountId, LIMITS, NOW)).allowed) count += 1;
  }
  return count;
}

describe('createQuotaLimiters without Redis', () => {
  test('in-process limiters, one per process', async () => {
    const a = createQuotaLimiters({ redisUrl: null, redisPrefix: 'x:' }, capture());
    const b = createQuotaLimiters({ redisUrl: null, redisPrefix: 'x:' }, capture());
    assert.equal(await admitted(a.limiter, 5), 3);
    assert.equal(await admitted(b.limiter, 5), 3, 'nothing is shared');
    await Promise.all([a.close(), b.close()]);
  });

  test('an unreachable Redis fails open onto local limits, logged once', async () => {
    const logger = capture();
    const quotas = createQuotaLimiters(
      { redisUrl: 'redis://127.0.0.1:1', redisPrefix: 'x:' },
      logger,
    );
    assert.equal(await admitted(quotas.limiter, 5), 3, 'the local limiter enforces the limits');
    assert.deepEqual(
      logger.lines.map((line) => line.msg),
      [OUTAGE_MESSAGE],
    );
    await quotas.close();
  });
});

describe('createQuotaLimiters: the local fallback starts a month from the stored total', () => {
  test('with Redis unreachable, Remaining-Month counts on from the 40 already stored', async () => {
    const month = 202611;
    const store = {
      addMonthlyUsage: async () => [],
      monthlyUsage: async (accountId: string, asked: number) =>
        accountId === 'acct-1' && asked === month ? 40 : 0,
    };
    const quotas = createQuotaLimiters(
      { redisUrl: 'redis://127.0.0.1:1', redisPrefix: 'x:' },
      capture(),
      store,
    );
    const limits = { perMinute: 100, monthly: 10_000 };
    const decision = await quotas.limiter.consume('acct-1', limits, NOW);
    assert.equal(decision.month?.remaining, 10_000 - 41);
    await quotas.close();
  });
});

describe('createQuotaLimiters with Redis', needsRedis, () => {
  test('two processes share one account budget; health counts apart from quotas', async () => {
    const prefix = testPrefix();
    const config = { redisUrl: REDIS_URL, redisPrefix: prefix };
    const a = createQuotaLimiters(config, capture());
    const b = createQuotaLimiters(config, capture());
    const redis = new Redis(REDIS_URL);
    try {
      // The limiters count per minute of Redis's clock, not the `now` passed in: a burst that
      // may have crossed a minute boundary is not judged but repeated on an untouched account.
      const results = await inOneRedisMinute(redis, (attempt) =>
        Promise.all([
          admitted(a.limiter, 4, `acct-burst-${attempt}`),
          admitted(b.limiter, 4, `acct-burst-${attempt}`),
        ]),
      );
      assert.equal(results[0] + results[1], 3);
      assert.equal((await a.healthLimiter.consume('acct-1', LIMITS, NOW)).allowed, true);
    } finally {
      await Promise.all([a.close(), b.close()]);
      await deleteKeys(redis, prefix);
      await redis.quit();
    }
  });
});
