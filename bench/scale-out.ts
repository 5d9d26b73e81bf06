/**
 * Scale-out primitives: the Redis quota limiter against the in-process one (cost per request),
 * change propagation over Redis pub/sub, and the PostgreSQL ingest rate against SQLite's in the
 * same run. Needs REDIS_URL / DATABASE_URL; each part says so and is skipped when its URL is unset.
 */
import { randomBytes } from 'node:crypto';
import { createMemoryRateLimiter } from '../src/access/memory-rate-limiter.ts';
import type { RateLimiter } from '../src/access/rate-limiter.ts';
import { createRedisRateLimiter } from '../src/access/redis-rate-limiter.ts';
import { measurePropagation } from '../src/events/propagation.ts';
import { createRedisChangeBus } from '../src/events/redis-change-bus.ts';
import { benchPostgresIngest } from '../src/store/postgres/bench.ts';
import { createSqlitePriceStore } from '../src/store/sqlite/sqlite-price-store.ts';
import type { SideSnapshot } from '../src/domain/quote.ts';

const LIMITS = { perMinute: 1_000_000_000, monthly: 1_000_000_000 };

async function microsPerConsume(limiter: RateLimiter, calls: number): Promise<number> {
  for (let i = 0; i < 200; i += 1) await limiter.consume('warm', LIMITS, Date.now());
  const started = performance.now();
  for (let i = 0; i < calls; i += 1) await limiter.consume(`acct-${i % 50}`, LIMITS, Date.now());
  return ((performance.now() - started) * 1000) / calls;
}

export async function benchQuotaStores(redisUrl: string | undefined): Promise<void> {
  const memory = await microsPerConsume(createMemoryRateLimiter(), 20_000);
  console.log(`quota consume, in-process limiter: ${memory.toFixed(1)} µs per request`);
  if (!redisUrl) return console.log('quota consume, Redis limiter: skipped (REDIS_URL not set)');
  const redis = createRedisRateLimiter({
    url: redisUrl,
    prefix: `bench:${randomBytes(4).toString('hex')}:`,
  });
  try {
    const remote = await microsPerConsume(redis, 5_000);
    console.log(
      `quota consume, Redis limiter (one Lua script, Redis clock): ${remote.toFixed(1)} µs per request; ` +
        `ratio vs in-process ${(remote / memory).toFixed(1)}x`,
    );
  } finally {
    await redis.close();
  }
}

export async function benchPropagation(redisUrl: string | undefined): Promise<void> {
  if (!redisUrl) return console.log('change propagation: skipped (REDIS_URL not set)');
  const bus = createRedisChangeBus({
    url: redisUrl,
    prefix: `bench:${randomBytes(4).toString('hex')}:`,
  });
  try {
    await bus.ready;
    const stats = await measurePropagation(bus, 500);
    console.log(
      `change propagation over Redis pub/sub (500 events): p50 ${stats.p50Ms.toFixed(2)} ms, ` +
        `p99 ${stats.p99Ms.toFixed(2)} ms, max ${stats.maxMs.toFixed(2)} ms`,
    );
  } finally {
    await bus.close();
  }
}

function side(index: number, fetchedAt: number): SideSnapshot {
  return {
    game: 'cs2',
    itemId: `bench-item-${Math.floor(index / 2)}`,
    market: index % 4 < 2 ? 'skinport' : 'csfloat',
    side: index % 2 === 0 ? 'ask' : 'bid',
    levels: [{ price: 1000 + (index % 500), quantity: 3, orders: 2 }],
    listingCount: 3,
    totalQuantity: 3,
    fetchedAt,
    ingestedAt: fetchedAt,
    sourceUpdatedAt: null,
    sourceTimeKind: null,
    originalCurrency: 'USD',
  };
}

async function sqliteSidesPerSecond(): Promise<number> {
  const store = createSqlitePriceStore({ path: ':memory:' });
  await store.init();
  const batch = 10_000;
  const started = performance.now();
  for (let b = 0; b < 10; b += 1) {
    const sides = Array.from({ length: batch }, (_, i) => side(b * batch + i, 1_000 + b));
    await store.writeBatch({ sides, sales: [], listings: [] });
  }
  const rate = (10 * batch) / ((performance.now() - started) / 1000);
  await store.close();
  return rate;
}

export async function benchStoreIngest(databaseUrl: string | undefined): Promise<void> {
  const sqlite = await sqliteSidesPerSecond();
  console.log(`store ingest, SQLite: ${Math.round(sqlite)} book sides/s (10k per transaction)`);
  if (!databaseUrl) return console.log('store ingest, PostgreSQL: skipped (DATABASE_URL not set)');
  const pg = await benchPostgresIngest(databaseUrl);
  const rate = (phase: { observationsPerSecond: number }) =>
    Math.round(phase.observationsPerSecond);
  console.log(
    `store ingest, PostgreSQL: new sides ${rate(pg.newSides)}/s, rewritten sides ` +
      `${rate(pg.rewrittenSides)}/s, new sales ${rate(pg.newSales)}/s (10k per transaction); ` +
      `new sides ratio vs SQLite ${(pg.newSides.observationsPerSecond / sqlite).toFixed(2)}`,
  );
}
