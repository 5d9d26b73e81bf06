/**
 * Monthly quotas survive a restart of a Redis without persistence: each test runs its own
 * `redis-server --save "" --appendonly no` on a free port, spends part of an account's month,
 * kills that Redis (SIGKILL, every key gone) and starts it again empty. The access store is SQLite
 * and, with DATABASE_URL, PostgreSQL.
 */
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AccessStore } from '../access/access-store.ts';
import { createPostgresAccessStore } from '../access/postgres-access-store.ts';
import { monthNumber } from '../access/quota-windows.ts';
import type { QuotaDecision, QuotaLimits, RateLimiter } from '../access/rate-limiter.ts';
import { OUTAGE_MESSAGE, RECOVERY_MESSAGE } from '../access/resilient-rate-limiter.ts';
import { createSqliteAccessStore } from '../access/sqlite-access-store.ts';
import { systemClock } from '../domain/clock.ts';
import { needsRedisServer, startPrivateRedis } from '../events/private-redis.ts';
import type { PrivateRedis } from '../events/private-redis.ts';
import { delay } from '../events/redis-test-support.ts';
import { capturingLogger } from '../ingest/test-fixtures.ts';
import { DATABASE_URL, dropSchema, testSchemaName } from '../store/postgres/test-support.ts';
import { createQuotaLimiters } from './quotas.ts';
import type { QuotaLimiters } from './quotas.ts';

const dir = mkdtempSync(join(tmpdir(), 'quotas-restart-'));
const schemas: string[] = [];
after(async () => {
  rmSync(dir, { recursive: true, force: true });
  for (const schema of schemas) await dropSchema(schema);
});

type Backend = 'sqlite' | 'postgres';

/** `count` store objects on one database, as `count` processes would open it. */
async function openStores(backend: Backend, count: number): Promise<AccessStore[]> {
  const schema = testSchemaName();
  if (backend === 'postgres') schemas.push(schema);
  const path = join(dir, `${schema}.db`);
  const stores = Array.from({ length: count }, () =>
    backend === 'postgres'
      ? createPostgresAccessStore({ connectionString: DATABASE_URL, schema })
      : createSqliteAccessStore({ path }),
  );
  for (const store of stores) await store.init();
  return stores;
}

const backendOptions = (backend: Backend) => ({
  // A hang guard only: a test may wait up to 8 s for a fresh minute, up to 15 s for Redis to be
  // used again and 20 s for the ledger's write, and a slow machine takes seconds for the rest.
  timeout: 180_000,
  skip: backend === 'postgres' && !DATABASE_URL ? 'DATABASE_URL not set' : false,
});

async function consumeTimes(limiter: RateLimiter, id: string, limits: QuotaLimits, n: number) {
  const decisions: QuotaDecision[] = [];
  for (let i = 0; i < n; i += 1)
    decisions.push(await limiter.consume(id, limits, systemClock.now()));
  return decisions;
}

const admitted = (decisions: QuotaDecision[]) => decisions.filter((d) => d.allowed).length;

/**
 * Probes until this process decides on Redis again: every outage it logged (a probe may be the
 * first request to notice the restart) has been followed by its recovery.
 */
async function backOnRedis(quotas: QuotaLimiters, logger: ReturnType<typeof capturingLogger>) {
  const unlimited = { perMinute: 1_000_000, monthly: null };
  const count = (msg: string) => logger.lines.filter((line) => line.msg === msg).length;
  for (let waited = 0; waited < 15_000; waited += 100) {
    await quotas.limiter.consume('acc_probe', unlimited, systemClock.now());
    if (count(OUTAGE_MESSAGE) === count(RECOVERY_MESSAGE)) return;
    await delay(100);
  }
  throw new Error('still on the local limiter 15 s after Redis came back');
}

/** Waits until the store holds `count` for the account's month: the ledger writes on its timer. */
async function stored(store: AccessStore, accountId: string, count: number): Promise<void> {
  const month = monthNumber(systemClock.now());
  for (let waited = 0; waited < 20_000; waited += 50) {
    if ((await store.monthlyUsage(accountId, month)) === count) return;
    await delay(50);
  }
  throw new Error(`the store never held ${count} for ${accountId}`);
}

/** Leaves at least 8 s of the current UTC minute for a burst that must stay in one minute. */
async function awayFromMinuteEnd(): Promise<void> {
  const left = 60_000 - (systemClock.now() % 60_000);
  if (left < 8_000) await delay(left + 50);
}

async function restart(redis: PrivateRedis): Promise<void> {
  await redis.kill();
  await redis.start();
}

describe('monthly quotas across a restart of a private Redis', needsRedisServer, () => {
  for (const backend of ['sqlite', 'postgres'] as const) {
    test(
      `${backend}: the month is not refunded; the minute window starts afresh`,
      backendOptions(backend),
      async () => {
        const redis = await startPrivateRedis();
        const [store] = await openStores(backend, 1);
        const logger = capturingLogger();
        const quotas = createQuotaLimiters(
          { redisUrl: redis.url, redisPrefix: 't:' },
          logger,
          store,
        );
        const MONTHLY = { perMinute: 1_000, monthly: 40 };
        const PER_MINUTE = { perMinute: 10, monthly: 1_000 };
        try {
          await awayFromMinuteEnd();
          const before = await consumeTimes(quotas.limiter, 'acc_month', MONTHLY, 25);
          assert.equal(admitted(before), 25);
          assert.equal(before.at(-1)?.month?.remaining, 15);
          assert.equal(
            admitted(await consumeTimes(quotas.limiter, 'acc_minute', PER_MINUTE, 6)),
            6,
          );

          await redis.kill();
          const during = await consumeTimes(quotas.limiter, 'acc_month', MONTHLY, 3);
          assert.equal(admitted(during), 3, 'the local limiter serves while Redis is down');
          assert.ok(logger.lines.some((line) => line.msg === OUTAGE_MESSAGE));
          await redis.start();
          await backOnRedis(quotas, logger);

          await awayFromMinuteEnd();
          const afterRestart = await consumeTimes(quotas.limiter, 'acc_month', MONTHLY, 20);
          assert.equal(
            afterRestart[0]?.month?.remaining,
            40 - 29,
            'not refunded: 25 + 3 + this one',
          );
          assert.equal(admitted(afterRestart), 12, 'exactly the 40 of the month in all');
          assert.equal(afterRestart.at(-1)?.refusedBy, 'month');

          const minute = await consumeTimes(quotas.limiter, 'acc_minute', PER_MINUTE, 12);
          assert.equal(minute[0]?.minute.remaining, 9, 'the new Redis starts a fresh minute');
          assert.equal(admitted(minute), 10, 'and still caps it at the per-minute limit');
          assert.equal(minute.at(-1)?.refusedBy, 'minute');
          assert.equal(minute[0]?.month?.remaining, 1_000 - 7, 'its month is kept too');
        } finally {
          await quotas.close();
          await redis.stop();
        }
        const month = monthNumber(systemClock.now());
        assert.equal(
          await store!.monthlyUsage('acc_month', month),
          40,
          'every admitted request stored',
        );
        assert.equal(await store!.monthlyUsage('acc_minute', month), 16);
        await store!.close();
      },
    );

    test(
      `${backend}: two processes stay exact across the restart`,
      backendOptions(backend),
      async () => {
        const redis = await startPrivateRedis();
        const stores = await openStores(backend, 2);
        const loggers = stores.map(() => capturingLogger());
        const processes = stores.map((store, i) =>
          createQuotaLimiters({ redisUrl: redis.url, redisPrefix: 't:' }, loggers[i]!, store),
        );
        const LIMITS = { perMinute: 1_000, monthly: 60 };
        const burst = (each: number) =>
          Promise.all(
            processes.map((quotas) => consumeTimes(quotas.limiter, 'acc_pool', LIMITS, each)),
          );
        try {
          const before = (await burst(20)).flat();
          assert.equal(admitted(before), 40);
          await stored(stores[0]!, 'acc_pool', 40);

          await restart(redis);
          await Promise.all(processes.map((quotas, i) => backOnRedis(quotas, loggers[i]!)));
          const afterRestart = (await burst(30)).flat();
          assert.equal(admitted(afterRestart), 20, 'the pooled month ends at exactly 60');
          assert.ok(afterRestart.filter((d) => !d.allowed).every((d) => d.refusedBy === 'month'));
        } finally {
          await Promise.all(processes.map((quotas) => quotas.close()));
          await redis.stop();
        }
        assert.equal(await stores[0]!.monthlyUsage('acc_pool', monthNumber(systemClock.now())), 60);
        for (const store of stores) await store.close();
      },
    );
  }
});

describe('monthly quotas across a restart of a process without Redis', () => {
  test('the next process continues the month from the store', async () => {
    const [first, second] = await openStores('sqlite', 2);
    const LIMITS = { perMinute: 1_000, monthly: 40 };
    const crashed = createQuotaLimiters(
      { redisUrl: null, redisPrefix: 't:' },
      capturingLogger(),
      first,
    );
    assert.equal(admitted(await consumeTimes(crashed.limiter, 'acc_a', LIMITS, 15)), 15);
    await stored(first!, 'acc_a', 15);

    const next = createQuotaLimiters(
      { redisUrl: null, redisPrefix: 't:' },
      capturingLogger(),
      second,
    );
    try {
      const decisions = await consumeTimes(next.limiter, 'acc_a', LIMITS, 30);
      assert.equal(decisions[0]?.month?.remaining, 40 - 16, 'counts written before the crash kept');
      assert.equal(admitted(decisions), 25);
    } finally {
      await Promise.all([crashed.close(), next.close()]);
      await Promise.all([first!.close(), second!.close()]);
    }
  });
});
