import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { Redis } from 'ioredis';
import { accountKey, createRedisRateLimiter, monthKey } from './redis-rate-limiter.ts';
import { fakeLedger, ledgerKey } from './monthly-usage-test-support.ts';
import type { QuotaLimits, RateLimiter } from './rate-limiter.ts';
import { rateLimiterContract } from './rate-limiter-contract.ts';
import { clientIpKey } from './ip-gate.ts';
import {
  REDIS_URL,
  deleteKeys,
  inOneRedisMinute,
  needsRedis,
  redisNow,
  testPrefix,
} from '../events/redis-test-support.ts';

const HEALTH_LIMITS = { perMinute: 60, monthly: null };

const DEVELOPER: QuotaLimits = { perMinute: 60, monthly: 10_000 };

describe('Redis rate limiter', needsRedis, () => {
  let admin: Redis;
  const prefixes: string[] = [];
  const limiter = (clock: 'redis' | 'caller', connection?: Redis): RateLimiter => {
    const prefix = testPrefix();
    prefixes.push(prefix);
    return connection
      ? createRedisRateLimiter({ redis: connection, prefix, clock })
      : createRedisRateLimiter({ url: REDIS_URL, prefix, clock });
  };

  before(() => {
    admin = new Redis(REDIS_URL);
  });

  after(async () => {
    for (const prefix of prefixes) await deleteKeys(admin, prefix);
    await admin.quit();
  });

  rateLimiterContract('redis, caller clock', () => limiter('caller'));
  rateLimiterContract('redis with a month ledger, caller clock', () => {
    const prefix = testPrefix();
    prefixes.push(prefix);
    return createRedisRateLimiter({
      url: REDIS_URL,
      prefix,
      clock: 'caller',
      monthLedger: fakeLedger(),
    });
  });

  test('a missing month key is recreated from the ledger before anything is counted', async () => {
    const prefix = testPrefix();
    prefixes.push(prefix);
    const ledger = fakeLedger({ [ledgerKey('acc_seed', 202611)]: 100 });
    const subject = createRedisRateLimiter({
      redis: admin,
      prefix,
      clock: 'caller',
      monthLedger: ledger,
    });
    const now = Date.parse('2026-11-03T12:00:00Z');
    const first = await subject.consume('acc_seed', DEVELOPER, now);
    assert.equal(first.month?.remaining, 10_000 - 101);
    assert.deepEqual([...ledger.recorded], [[ledgerKey('acc_seed', 202611), 1]]);
    assert.equal(ledger.reads, 1);
    await subject.consume('acc_seed', DEVELOPER, now);
    assert.equal(ledger.reads, 1, 'no read while the key exists');

    await admin.del(monthKey(prefix, 'acc_seed', 202611));
    const decisions = await Promise.all(
      Array.from({ length: 20 }, () => subject.consume('acc_seed', DEVELOPER, now + 1)),
    );
    assert.ok(decisions.every((decision) => decision.allowed));
    const remaining = decisions.map((decision) => decision.month!.remaining).sort((a, b) => b - a);
    assert.deepEqual(
      remaining,
      Array.from({ length: 20 }, (_, i) => 10_000 - 103 - i),
      'seeded once from stored 100 + 2 recorded, then counted exactly',
    );
    const uncapped = await subject.consume('acc_free', { perMinute: 5, monthly: null }, now);
    assert.equal(uncapped.month, null);
    assert.equal(ledger.recorded.get(ledgerKey('acc_free', 202611)), undefined);
  });

  test('raiseMonthCounters lifts a counter to the stored total and never lowers one', async () => {
    const prefix = testPrefix();
    prefixes.push(prefix);
    const subject = createRedisRateLimiter({ redis: admin, prefix, clock: 'caller' });
    const now = Date.parse('2026-11-03T12:00:00Z');
    for (let i = 0; i < 5; i += 1) await subject.consume('acc_r', DEVELOPER, now);
    const key = monthKey(prefix, 'acc_r', 202611);
    const ttlBefore = await admin.pttl(key);
    await subject.raiseMonthCounters([{ accountId: 'acc_r', month: 202611, used: 3 }]);
    assert.equal(await admin.get(key), '5');
    await subject.raiseMonthCounters([
      { accountId: 'acc_r', month: 202611, used: 9 },
      { accountId: 'acc_new', month: 202611, used: 4 },
    ]);
    assert.equal(await admin.get(key), '9');
    assert.ok((await admin.pttl(key)) <= ttlBefore, 'the TTL is kept');
    assert.equal(await admin.get(monthKey(prefix, 'acc_new', 202611)), '4');
    const created = (await admin.pttl(monthKey(prefix, 'acc_new', 202611))) / 86_400_000;
    assert.ok(created > 31.9 && created <= 32, `created with the month TTL (${created} days)`);
    const decision = await subject.consume('acc_r', DEVELOPER, now);
    assert.equal(decision.month?.remaining, 10_000 - 10);
  });

  test('window keys name the UTC minute and the UTC calendar month', async () => {
    const prefix = testPrefix();
    prefixes.push(prefix);
    const subject = createRedisRateLimiter({ redis: admin, prefix, clock: 'caller' });
    const edges = ['2024-02-29T23:59:59.999Z', '2024-03-01T00:00:00Z', '2100-12-31T23:59:59Z'];
    const instants = fc.oneof(
      fc.integer({ min: 0, max: Date.UTC(2200, 0, 1) }),
      fc.constantFrom(...edges.map((text) => Date.parse(text))),
    );
    let run = 0;
    await fc.assert(
      fc.asyncProperty(instants, async (now) => {
        const id = `acc_${(run += 1)}`;
        await subject.consume(id, DEVELOPER, now);
        const date = new Date(now);
        const month = date.getUTCFullYear() * 100 + date.getUTCMonth() + 1;
        const base = accountKey(prefix, id);
        assert.equal(await admin.exists(`${base}:mo:${month}`), 1, `month key for ${date}`);
        assert.equal(await admin.exists(`${base}:m:${Math.floor(now / 60_000)}`), 1);
      }),
      { numRuns: 60 },
    );
    await subject.close();
    assert.equal(admin.status, 'ready', 'close() leaves a connection it did not open');
  });

  test('minute keys expire after about 2 minutes and month keys after about 32 days', async () => {
    const prefix = testPrefix();
    prefixes.push(prefix);
    const subject = createRedisRateLimiter({ redis: admin, prefix, clock: 'caller' });
    const now = Date.parse('2026-11-03T12:00:00Z');
    await subject.consume('acc_ttl', DEVELOPER, now);
    await subject.consume('acc_ttl', DEVELOPER, now);
    const base = accountKey(prefix, 'acc_ttl');
    const minuteTtl = await admin.pttl(`${base}:m:${now / 60_000}`);
    const monthTtl = await admin.pttl(`${base}:mo:202611`);
    assert.ok(minuteTtl > 110_000 && minuteTtl <= 120_000, `minute ttl ${minuteTtl}`);
    const days = monthTtl / 86_400_000;
    assert.ok(days > 31.9 && days <= 32, `month ttl ${days} days`);
  });

  test('on the Redis clock, 60 per minute admits exactly 60 of 100 concurrent requests', async () => {
    const subject = limiter('redis');
    try {
      const callerNow = Date.parse('2000-01-01T00:00:00Z');
      const decisions = await inOneRedisMinute(admin, (attempt) =>
        Promise.all(
          Array.from({ length: 100 }, () =>
            subject.consume(`acc_burst${attempt}`, DEVELOPER, callerNow),
          ),
        ),
      );
      const admitted = decisions.filter((decision) => decision.allowed);
      assert.equal(admitted.length, 60);
      const remaining = admitted.map((decision) => decision.minute.remaining).sort((a, b) => a - b);
      assert.deepEqual(
        remaining,
        Array.from({ length: 60 }, (_, i) => i),
      );
      const refused = decisions.find((decision) => !decision.allowed);
      assert.equal(refused?.refusedBy, 'minute');
      assert.equal(refused?.month?.remaining, 10_000 - 60, 'refusals spent no monthly quota');

      const now = await redisNow(admin);
      const untilMonthEnd = monthEnd(now) - now;
      const monthReset = refused?.month?.resetSeconds ?? 0;
      assert.ok(Math.abs(monthReset * 1000 - untilMonthEnd) < 5_000, 'windows follow Redis TIME');
      assert.ok(refused!.retryAfterSeconds! >= 1 && refused!.retryAfterSeconds! <= 60);
    } finally {
      await subject.close();
    }
  });

  test('two processes (two connections) draw on one pool per account', async () => {
    const prefix = testPrefix();
    prefixes.push(prefix);
    const processA = createRedisRateLimiter({ url: REDIS_URL, prefix });
    const processB = createRedisRateLimiter({ url: REDIS_URL, prefix });
    try {
      const now = 0;
      const decisions = await inOneRedisMinute(admin, (attempt) =>
        Promise.all(
          Array.from({ length: 90 }, (_, i) =>
            (i % 2 === 0 ? processA : processB).consume(`acc_pool${attempt}`, DEVELOPER, now),
          ),
        ),
      );
      assert.equal(decisions.filter((decision) => decision.allowed).length, 60);
      const ipDecisions = await inOneRedisMinute(admin, (attempt) =>
        Promise.all(
          Array.from({ length: 61 }, (_, i) =>
            (i % 2 === 0 ? processA : processB).consume(
              clientIpKey(`::ffff:203.0.113.${9 + attempt}`),
              HEALTH_LIMITS,
              now,
            ),
          ),
        ),
      );
      assert.equal(ipDecisions.filter((decision) => decision.allowed).length, 60);
      assert.ok(ipDecisions.every((decision) => decision.month === null));
    } finally {
      await processA.close();
      await processB.close();
    }
  });

  test('overhead: mean time per consume over 2,000 sequential calls', async () => {
    const subject = limiter('redis');
    try {
      const calls = 2_000;
      const limits = { perMinute: 1_000_000, monthly: 10_000_000 };
      const started = performance.now();
      let admitted = 0;
      for (let i = 0; i < calls; i += 1) {
        if ((await subject.consume(`acc_${i % 20}`, limits, 0)).allowed) admitted += 1;
      }
      const meanMs = (performance.now() - started) / calls;
      console.log(`redis limiter: ${meanMs.toFixed(3)} ms per consume (mean of ${calls})`);
      assert.equal(admitted, calls);
    } finally {
      await subject.close();
    }
  });
});

function monthEnd(now: number): number {
  const date = new Date(now);
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1);
}
