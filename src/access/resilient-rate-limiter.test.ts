import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Redis } from 'ioredis';
import {
  OUTAGE_MESSAGE,
  RECOVERY_MESSAGE,
  createResilientLimiter,
} from './resilient-rate-limiter.ts';
import { createMemoryRateLimiter } from './memory-rate-limiter.ts';
import { createRedisRateLimiter } from './redis-rate-limiter.ts';
import type { QuotaDecision, QuotaLimits, RateLimiter } from './rate-limiter.ts';
import { capturingLogger } from '../ingest/test-fixtures.ts';
import { REDIS_URL, deleteKeys, needsRedis, testPrefix } from '../events/redis-test-support.ts';

const LIMITS: QuotaLimits = { perMinute: 3, monthly: 100 };
const T0 = Date.parse('2026-11-03T12:00:00Z');
const CLOSED_PORT_URL = 'redis://127.0.0.1:6390';

/** A primary that can be swapped at run time and counts the calls it receives. */
function switchablePrimary(initial: RateLimiter) {
  const state = { current: initial, calls: 0 };
  const limiter: RateLimiter = {
    async consume(id, limits, now) {
      state.calls += 1;
      return state.current.consume(id, limits, now);
    },
    async close() {},
  };
  return { state, limiter };
}

const failing: RateLimiter = {
  async consume() {
    throw new Error('connect ECONNREFUSED');
  },
  async close() {},
};

async function consumeTimes(limiter: RateLimiter, times: number, now: number) {
  const decisions: QuotaDecision[] = [];
  for (let i = 0; i < times; i += 1) decisions.push(await limiter.consume('acc_a', LIMITS, now));
  return decisions;
}

const messages = (logger: ReturnType<typeof capturingLogger>) =>
  logger.lines.map((line) => `${line.level}: ${line.msg}`);

describe('resilient limiter', () => {
  test('serves from the fallback during an outage, logging it once', async () => {
    const logger = capturingLogger();
    const { state, limiter: primary } = switchablePrimary(failing);
    const limiter = createResilientLimiter({
      primary,
      fallback: createMemoryRateLimiter(),
      logger,
      retryAfterMs: 5_000,
    });
    const decisions = await consumeTimes(limiter, 4, T0);
    assert.deepEqual(
      decisions.map((decision) => decision.allowed),
      [true, true, true, false],
    );
    assert.equal(decisions[3]?.refusedBy, 'minute');
    assert.equal(state.calls, 1, 'no probe before retryAfterMs');
    assert.deepEqual(messages(logger), [`error: ${OUTAGE_MESSAGE}`]);
    assert.equal(limiter.degraded(), true);

    await limiter.consume('acc_a', LIMITS, T0 + 5_000);
    assert.equal(state.calls, 2, 'probes again after retryAfterMs');
    assert.equal(logger.lines.length, 1, 'a failed probe does not log again');
  });

  test('an outage keeps counting the month down from the last figure the primary gave', async () => {
    const limits: QuotaLimits = { perMinute: 1_000, monthly: 10_000 };
    const { state, limiter: primary } = switchablePrimary(createMemoryRateLimiter());
    const limiter = createResilientLimiter({
      primary,
      fallback: createMemoryRateLimiter(),
      logger: capturingLogger(),
      retryAfterMs: 5_000,
    });
    for (let i = 0; i < 40; i += 1) await limiter.consume('acc_a', limits, T0);
    state.current = failing;
    const during = await limiter.consume('acc_a', limits, T0 + 1);
    assert.equal(during.month?.remaining, 10_000 - 41, 'not 9999: the 40 already used count');
    const other = await limiter.consume('acc_b', limits, T0 + 2);
    assert.equal(other.month?.remaining, 10_000 - 1, 'an account never seen starts from zero');
  });

  test('recovers when the primary answers, and logs a new outage again', async () => {
    const logger = capturingLogger();
    const { state, limiter: primary } = switchablePrimary(failing);
    const shared = createMemoryRateLimiter();
    const limiter = createResilientLimiter({
      primary,
      fallback: createMemoryRateLimiter(),
      logger,
      retryAfterMs: 1_000,
    });
    await consumeTimes(limiter, 3, T0);
    state.current = shared;
    const afterProbe = await limiter.consume('acc_a', LIMITS, T0 + 1_000);
    assert.equal(afterProbe.minute.remaining, 2, 'counted by the primary again');
    assert.equal(limiter.degraded(), false);
    state.current = failing;
    await limiter.consume('acc_a', LIMITS, T0 + 2_000);
    assert.deepEqual(messages(logger), [
      `error: ${OUTAGE_MESSAGE}`,
      `info: ${RECOVERY_MESSAGE}`,
      `error: ${OUTAGE_MESSAGE}`,
    ]);
  });

  test(
    'a Redis limiter on a closed port fails fast onto the fallback',
    { timeout: 10_000 },
    async () => {
      const logger = capturingLogger();
      const limiter = createResilientLimiter({
        primary: createRedisRateLimiter({ url: CLOSED_PORT_URL }),
        fallback: createMemoryRateLimiter(),
        logger,
        retryAfterMs: 100,
      });
      try {
        const decisions = await consumeTimes(limiter, 4, T0);
        assert.deepEqual(
          decisions.map((decision) => decision.allowed),
          [true, true, true, false],
        );
        const probed = await limiter.consume('acc_a', LIMITS, T0 + 100);
        assert.equal(probed.allowed, false, 'still the fallback after a failed probe');
        assert.deepEqual(messages(logger), [`error: ${OUTAGE_MESSAGE}`]);
      } finally {
        await limiter.close();
      }
    },
  );
});

describe('resilient limiter over Redis', needsRedis, () => {
  let admin: Redis;
  const prefix = testPrefix();
  before(() => {
    admin = new Redis(REDIS_URL);
  });
  after(async () => {
    await deleteKeys(admin, prefix);
    await admin.quit();
  });

  test('switches back to the shared Redis counters when Redis is reachable again', async () => {
    const logger = capturingLogger();
    const down = createRedisRateLimiter({ url: CLOSED_PORT_URL, prefix });
    const up = createRedisRateLimiter({ redis: admin, prefix, clock: 'caller' });
    const { state, limiter: primary } = switchablePrimary(down);
    const limiter = createResilientLimiter({
      primary,
      fallback: createMemoryRateLimiter(),
      logger,
      retryAfterMs: 1_000,
    });
    try {
      const local = await consumeTimes(limiter, 4, T0);
      assert.equal(local.filter((decision) => decision.allowed).length, 3);
      state.current = up;
      const shared = await consumeTimes(limiter, 4, T0 + 1_000);
      assert.deepEqual(
        shared.map((decision) => decision.minute.remaining),
        [2, 1, 0, 0],
        'Redis never saw the local requests',
      );
      assert.equal(await admin.exists(`${prefix}{acc_a}:mo:202611`), 1);
      assert.deepEqual(messages(logger), [`error: ${OUTAGE_MESSAGE}`, `info: ${RECOVERY_MESSAGE}`]);
    } finally {
      await down.close();
      await limiter.close();
    }
  });
});
