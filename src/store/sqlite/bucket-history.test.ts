import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type Database from 'better-sqlite3';
import { DAY, HOUR, MINUTE } from '../../domain/clock.ts';
import { TIERS, type Tier } from '../../pricing/rollup-buckets.ts';
import { mergeRollup, rollupOf, type BucketObservation } from '../bucket-history.ts';
import { bucketRollupValues } from '../bucket-rollup-rows.ts';
import { T0 } from '../contract-fixtures.ts';
import { CLOSE_GRACE } from './attribute-log.ts';
import { openPrices } from './connection.ts';
import { migrate } from './migrate.ts';
import { SQLITE_MIGRATIONS } from './migrations.ts';
import { createSqlitePriceStore } from './sqlite-price-store.ts';
import { bucketHistoryContract } from '../bucket-history-contract.ts';

bucketHistoryContract('sqlite :memory:', async () => ({
  store: createSqlitePriceStore({ path: ':memory:' }),
  cleanup: async () => {},
}));

const observed = (at: number, askCents: number, bucketId = 'ak47-ft'): BucketObservation => ({
  bucketId,
  at,
  askCents,
  bidCents: 900,
  askListingCount: 4,
  bidOrderCount: 2,
});

/** The rows the observations make, merged in order, by tier (what the upserts stored). */
function reference(observations: readonly BucketObservation[], tier: Tier) {
  const rows = new Map<string, ReturnType<typeof rollupOf>>();
  for (const observation of observations) {
    const row = rollupOf(observation, tier);
    const key = `${row.bucketId}@${row.start}`;
    const held = rows.get(key);
    rows.set(key, held === undefined ? row : mergeRollup(held, row));
  }
  return [...rows.values()].sort((a, b) => a.start - b.start);
}

/** Writes rows as an earlier layout's upserts left them (same columns in both layouts). */
function storeRows(db: Database.Database, observations: readonly BucketObservation[]) {
  const insert = db.prepare(`INSERT INTO attribute_rollups VALUES (${'?, '.repeat(13)}?)`);
  for (const tier of TIERS) {
    for (const row of reference(observations, tier)) insert.run(...bucketRollupValues(row, tier));
  }
}

function withDir(run: (path: string) => Promise<void>) {
  return async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bucket-history-'));
    try {
      await run(join(dir, 'prices.db'));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };
}

test(
  'attribute history written keyed by bucket id (version 9) reads the same once keyed time first',
  withDir(async (path) => {
    const earlier = openPrices(path);
    migrate(earlier, SQLITE_MIGRATIONS.slice(0, 9), () => T0);
    const rows = [observed(T0 + MINUTE, 1200), observed(T0 + 2 * MINUTE, 1100)];
    const later = [...rows, observed(T0 + 11 * MINUTE, 1300)];
    storeRows(earlier, later);
    earlier.close();
    const store = createSqlitePriceStore({ path });
    await store.init();
    const expected = reference(later, '10m');
    assert.equal(expected.length, 2);
    assert.deepEqual(await store.readBucketRollups('ak47-ft', '10m', T0, T0 + HOUR), expected);
    assert.deepEqual(await store.readBucketRollups('ak47-ft', '10m', T0 + 10 * MINUTE, T0 + HOUR), [
      expected[1],
    ]);
    await store.close();
  }),
);

test(
  'a version 12 data dir (rows upserted per call) opens; its open buckets merge what is observed after',
  withDir(async (path) => {
    const earlier = openPrices(path);
    migrate(earlier, SQLITE_MIGRATIONS.slice(0, 12), () => T0);
    const before = [observed(T0 + MINUTE, 1200), observed(T0 + 2 * MINUTE, 1100)];
    storeRows(earlier, before);
    earlier.close();
    const store = createSqlitePriceStore({ path });
    await store.init();
    const after = [observed(T0 + 3 * MINUTE, 1000), observed(T0 + 4 * MINUTE, 1400)];
    await store.recordBucketObservations(after);
    for (const tier of TIERS) {
      const read = await store.readBucketRollups('ak47-ft', tier, T0 - DAY, T0 + DAY);
      assert.deepEqual(read, reference([...before, ...after], tier), tier);
    }
    await store.recordBucketObservations([observed(T0 + DAY + CLOSE_GRACE, 1500)]);
    const stored = store.db
      .prepare("SELECT ask_n FROM attribute_rollups WHERE tier = '10m' AND start = ?")
      .pluck()
      .all(T0);
    assert.deepEqual(stored, [4], 'the closed bucket stored once, both halves merged');
    await store.close();
  }),
);

/** Every 2 minutes for 3 hours, two bucket ids. */
const SERIES = Array.from({ length: 90 }, (_, k) => [
  observed(T0 + k * 2 * MINUTE, 1000 + (k % 7) * 10),
  observed(T0 + k * 2 * MINUTE, 2000 + (k % 5) * 10, 'm4-fn'),
]);

test(
  'open buckets are written once, when they close; a restart and a second connection read them from the log',
  withDir(async (path) => {
    const writer = createSqlitePriceStore({ path });
    await writer.init();
    const reader = createSqlitePriceStore({ path });
    await reader.init();
    const count = writer.db.prepare('SELECT count(*) FROM attribute_rollups').pluck();
    const rowWrites: number[] = [];
    writer.db.function('row_written', () => void rowWrites.push(1));
    writer.db.exec(`CREATE TEMP TRIGGER row_in AFTER INSERT ON main.attribute_rollups
      BEGIN SELECT row_written(); END;
      CREATE TEMP TRIGGER row_up AFTER UPDATE ON main.attribute_rollups
      BEGIN SELECT row_written(); END`);
    for (const call of SERIES) await writer.recordBucketObservations(call);
    const all = SERIES.flat();
    const latest = T0 + 89 * 2 * MINUTE;
    const closed10m = reference(all, '10m').filter(
      (r) => r.start + 10 * MINUTE <= latest - CLOSE_GRACE,
    );
    const closed1h = reference(all, '1h').filter((r) => r.start + HOUR <= latest - CLOSE_GRACE);
    assert.equal(count.get(), closed10m.length + closed1h.length, 'closed rows only, 1d held');
    assert.equal(rowWrites.length, count.get(), 'each row written once');
    const logged = writer.db.prepare('SELECT count(*) FROM attribute_log').pluck().get();
    assert.ok((logged as number) <= (HOUR + CLOSE_GRACE) / (2 * MINUTE), 'the log since the hour');
    for (const bucket of ['ak47-ft', 'm4-fn']) {
      for (const tier of TIERS) {
        const expected = reference(all, tier).filter((row) => row.bucketId === bucket);
        const from = T0 - DAY;
        assert.deepEqual(await reader.readBucketRollups(bucket, tier, from, T0 + DAY), expected);
        assert.deepEqual(await writer.readBucketRollups(bucket, tier, from, T0 + DAY), expected);
      }
    }
    await writer.close();
    const restarted = createSqlitePriceStore({ path });
    await restarted.init();
    const [last10m] = reference(all, '10m').slice(-1);
    assert.deepEqual(
      await restarted.readBucketRollups(last10m!.bucketId, '10m', last10m!.start, T0 + DAY),
      [last10m],
    );
    await restarted.recordBucketObservations([observed(T0 + 2 * DAY, 1000)]);
    assert.deepEqual(
      await reader.readBucketRollups('ak47-ft', '1d', T0 - DAY, T0 + DAY),
      reference(all, '1d').filter((row) => row.bucketId === 'ak47-ft'),
    );
    const log = restarted.db.prepare('SELECT count(*) FROM attribute_log').pluck();
    assert.equal(log.get(), 1, 'the snapshot at the hour closed includes the log, its last kept');
    await Promise.all([restarted.close(), reader.close()]);
  }),
);

test(
  'two writers on one file: a bucket either closes is stored once, with both writers’ observations',
  withDir(async (path) => {
    const [a, b] = [createSqlitePriceStore({ path }), createSqlitePriceStore({ path })];
    await a.init();
    await b.init();
    await a.recordBucketObservations([observed(T0 + MINUTE, 1000)]);
    await b.recordBucketObservations([observed(T0 + 2 * MINUTE, 1200)]);
    await a.recordBucketObservations([observed(T0 + 25 * MINUTE, 1100)]);
    await b.recordBucketObservations([observed(T0 + 26 * MINUTE, 1300)]);
    const all = [1, 2, 25, 26].map((m, i) =>
      observed(T0 + m * MINUTE, [1000, 1200, 1100, 1300][i]!),
    );
    for (const store of [a, b]) {
      for (const tier of TIERS) {
        const read = await store.readBucketRollups('ak47-ft', tier, T0 - DAY, T0 + DAY);
        assert.deepEqual(read, reference(all, tier), tier);
      }
    }
    const stored = a.db.prepare("SELECT ask_n FROM attribute_rollups WHERE tier = '10m'").pluck();
    assert.deepEqual(stored.all(), [2]);
    await Promise.all([a.close(), b.close()]);
  }),
);
