import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import Database from 'better-sqlite3';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DAY, manualClock, MINUTE } from '../../domain/clock.ts';
import { TIERS } from '../../pricing/rollup-buckets.ts';
import { T0 } from '../contract-fixtures.ts';
import { compactHistory } from '../history-compaction.ts';
import { historyStoreContract } from '../history-contract.ts';
import type { IngestBatch } from '../../domain/quote.ts';
import { ask, bid, ITEM, referenceOf, sale, SERIES } from '../history-contract-support.ts';
import { writeRow } from './rollup-row-cache.ts';
import { keysOf, prepareRollupStatements } from './rollup-statements.ts';
import { FOLD_POLICY } from './store-rollups.ts';
import { createSqlitePriceStore } from './sqlite-price-store.ts';
import { looseRows, queryPlan, unfoldedBytes } from './test-support.ts';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'sqlite-history-'));
after(() => fs.rmSync(root, { recursive: true, force: true }));

historyStoreContract(
  'sqlite file',
  async () => {
    const file = path.join(fs.mkdtempSync(path.join(root, 'db-')), 'prices.db');
    return {
      store: createSqlitePriceStore({ path: file }),
      cleanup: async () => fs.rmSync(path.dirname(file), { recursive: true, force: true }),
    };
  },
  { pages: true, derivedHours: true },
);

historyStoreContract(
  'sqlite :memory:',
  async () => ({ store: createSqlitePriceStore({ path: ':memory:' }), cleanup: async () => {} }),
  { pages: true, derivedHours: true },
);

function changes(store: ReturnType<typeof createSqlitePriceStore>): number {
  return store.db.prepare<[], { n: number }>('SELECT total_changes() AS n').get()!.n;
}

describe('sqlite history', () => {
  test('change-only: a snapshot already counted is journaled but changes no rollup row', async () => {
    const store = createSqlitePriceStore({ path: ':memory:' });
    await store.init();
    const batch = {
      sides: [ask('skinport', 1234, MINUTE), bid('csfloat', 1100, MINUTE)],
      sales: [],
      listings: [],
    };
    const before = changes(store);
    await store.writeBatch(batch);
    assert.equal(
      changes(store) - before,
      2 + 1 + 1 + 3,
      "side log entries of two markets, the item's side code, first-write mark, 3 new series (the journal is a file)",
    );
    const folding = changes(store);
    await store.flushRollups();
    assert.equal(
      changes(store) - folding,
      1 + 2 + 1 + 1,
      "history lock, 10-minute buckets: the aggregate's row and the two markets' chunk (hours and days are derived), the segment's mark, frontiers",
    );
    const rows = () => store.db.prepare(`SELECT * FROM ${looseRows(store.db, '10m')}`).all();
    const stored = rows();
    const again = changes(store);
    await store.writeBatch(batch);
    await store.flushRollups();
    assert.equal(
      changes(store) - again,
      1 + 1 + 1,
      "history lock, the segment's mark, frontiers (the same sides again change no side row)",
    );
    assert.deepEqual(rows(), stored);
    await store.close();
  });

  test('settled periods are packed into one page per series; reads stay the same', async () => {
    const store = createSqlitePriceStore({ path: ':memory:' });
    await store.init();
    for (let bucket = 0; bucket < 144; bucket += 1) {
      const at = bucket * 10 * MINUTE + MINUTE + (bucket % 3) * 1000;
      const price = 1234 + (bucket % 7) * 10;
      await store.writeBatch({ sides: [ask('skinport', price, at)], sales: [], listings: [] });
    }
    const count = (table: string) =>
      store.db
        .prepare(`SELECT count(*) FROM ${fromTable(table)}`)
        .pluck()
        .get();
    const fromTable = (table: string) =>
      table.startsWith('rollups_') ? looseRows(store.db, table.slice(8)) : `history.${table}`;
    const bytes = (table: string) =>
      store.db.prepare(`SELECT sum(length(data)) FROM history.${table}`).pluck().get() as number;
    const before = await Promise.all(
      TIERS.map((tier) => store.readRollups(SERIES.aggregate, tier, 0, T0 + DAY)),
    );
    const rowBytes = store.db
      .prepare(`SELECT sum(length(ask)) FROM ${looseRows(store.db, '10m')}`)
      .pluck()
      .get() as number;
    assert.equal(count('rollups_1d'), 0, 'days are derived while their 10-minute rows are loose');
    await compactHistory(store, T0 + 8 * DAY, {});
    assert.deepEqual(
      ['rollups_10m', 'pages_10m', 'rollups_1h', 'pages_1h'].map(count),
      [0, 2, 0, 0],
      'a day of 10-minute buckets per series; its hours are derived from them',
    );
    assert.equal(count('rollups_1d'), 2, 'stored as its 10-minute day was packed, loose: 64 days');
    assert.ok(bytes('pages_10m') < rowBytes / 2, `${bytes('pages_10m')} of ${rowBytes} bytes`);
    const after = await Promise.all(
      TIERS.map((tier) => store.readRollups(SERIES.aggregate, tier, 0, T0 + DAY)),
    );
    assert.deepEqual(after, before);
    await store.close();
  });

  test('the journal folds when due: once its 10-minute period has closed and its grace passed, or before a read', async () => {
    const clock = manualClock(T0);
    const store = createSqlitePriceStore({ path: ':memory:', clock });
    await store.init();
    const rows = () =>
      store.db
        .prepare(`SELECT count(*) FROM ${looseRows(store.db, '10m')}`)
        .pluck()
        .get();
    await store.writeBatch({ sides: [ask('skinport', 1234, MINUTE)], sales: [], listings: [] });
    clock.advance(FOLD_POLICY.closeMs + FOLD_POLICY.graceMs - 1);
    await store.writeBatch({ sides: [ask('skinport', 1250, 2 * MINUTE)], sales: [], listings: [] });
    assert.equal(rows(), 0, 'not yet due');
    clock.advance(1);
    await store.writeBatch({ sides: [ask('skinport', 1260, 3 * MINUTE)], sales: [], listings: [] });
    assert.equal(rows(), 2, 'folded by the batch that found it due');
    const deferred = store.db.prepare('SELECT deferred FROM history.journal_marks').pluck().all();
    const next = Math.floor(T0 / FOLD_POLICY.closeMs) + 1;
    assert.deepEqual(deferred, [null, next], "the next period's segment defers its own period");
    await store.writeBatch({ sides: [ask('skinport', 1270, 4 * MINUTE)], sales: [], listings: [] });
    const [row] = await store.readRollups(SERIES.skinport, '10m', 0, T0 + DAY);
    assert.equal(row?.ask?.prices.n, 4, 'a read folds what is pending first');
    await store.close();
  });

  test("what arrives within the grace is in its period's rows when they are first written", async () => {
    const clock = manualClock(T0);
    const store = createSqlitePriceStore({ path: ':memory:', clock });
    await store.init();
    const bucketRows = (bucket: number) =>
      store.db
        .prepare(`SELECT count(*) FROM ${looseRows(store.db, '10m')} WHERE bucket = ?`)
        .pluck()
        .get(bucket);
    const period = FOLD_POLICY.closeMs;
    await store.writeBatch({ sides: [ask('skinport', 1234, MINUTE)], sales: [], listings: [] });
    clock.advance(period + 2 * MINUTE);
    await store.writeBatch({
      sides: [ask('skinport', 1300, period + MINUTE)],
      sales: [sale('csfloat', 1150, 2, period - MINUTE)],
      listings: [],
    });
    clock.advance(FOLD_POLICY.graceMs - 2 * MINUTE);
    await store.writeBatch({ sides: [], sales: [], listings: [] });
    clock.advance(1);
    await store.writeBatch({
      sides: [ask('skinport', 1310, period + 8 * MINUTE)],
      sales: [],
      listings: [],
    });
    const first = Math.floor(T0 / period);
    assert.equal(bucketRows(first), 3, "skinport's, csfloat's and the item's aggregate");
    assert.equal(bucketRows(first + 1), 0, 'the open period waits');
    const [sold] = await store.readRollups(SERIES.csfloat, '10m', 0, T0 + DAY);
    assert.equal(sold?.sales?.n, 2, 'the late sale, counted once');
    const asks = await store.readRollups(SERIES.skinport, '10m', 0, T0 + DAY);
    assert.deepEqual(
      asks.map((row) => row.ask?.prices.n),
      [1, 2],
      "the next period's own snapshots, folded by the read",
    );
    await store.close();
  });

  test('a store that died before folding replays its journal on the next open', async () => {
    const file = path.join(fs.mkdtempSync(path.join(root, 'crash-')), 'prices.db');
    const dead = createSqlitePriceStore({ path: file });
    await dead.init();
    await dead.writeBatch({
      sides: [ask('skinport', 1234, MINUTE), bid('csfloat', 1100, MINUTE)],
      sales: [sale('csfloat', 1150, 2, MINUTE)],
      listings: [],
    });
    const reopened = createSqlitePriceStore({ path: file });
    await reopened.init();
    const [row] = await reopened.readRollups(SERIES.aggregate, '1h', 0, T0 + DAY);
    assert.equal(row?.ask?.prices.min, 1234);
    assert.equal(row?.bid?.prices.max, 1100);
    assert.equal(row?.sales?.n, 2);
    assert.equal(unfoldedBytes(reopened.db, file), 0, 'folded on open');
    await reopened.close();
    dead.db.close();
  });

  test('a data dir whose folds stored the open day keeps folding into it and reads the same', async () => {
    const file = path.join(fs.mkdtempSync(path.join(root, 'days-')), 'prices.db');
    const fetches = (day: number, from: number, to: number) =>
      Array.from({ length: to - from }, (_, at) => ({
        sides: [ask('skinport', 1200 + at, day * DAY + (from + at) * 20 * MINUTE)],
        sales: at % 3 ? [] : [sale('csfloat', 1300 + at, 1, day * DAY + (from + at) * 20 * MINUTE)],
        listings: [],
      }));
    const old = createSqlitePriceStore({ path: file });
    await old.init();
    const first = fetches(0, 0, 30);
    for (const batch of first) await old.writeBatch(batch);
    await old.flushRollups();
    const statements = prepareRollupStatements(old.db);
    const seriesOf = old.db
      .prepare<[string, string], number>(
        'SELECT id FROM history_series WHERE market = ? AND item_id = ?',
      )
      .pluck();
    const reference = referenceOf(first);
    for (const series of [SERIES.aggregate, SERIES.skinport, SERIES.csfloat]) {
      const id = seriesOf.get(series.market ?? '', ITEM)!;
      for (const row of reference.read(series, '1d', 0, T0 + DAY)) {
        writeRow(statements.tiers['1d'], { series: id, bucket: row.start / DAY, row });
      }
    }
    old.db.exec(`UPDATE history.fold_mark SET frontier_1d = ${T0 / DAY}`);
    await old.close();
    const store = createSqlitePriceStore({ path: file });
    await store.init();
    const days = () =>
      store.db
        .prepare(`SELECT bucket FROM ${looseRows(store.db, '1d')}`)
        .pluck()
        .all();
    const expect = async (batches: IngestBatch[]) => {
      const expected = referenceOf(batches);
      for (const series of [SERIES.aggregate, SERIES.skinport, SERIES.csfloat]) {
        const read = await store.readRollups(series, '1d', 0, T0 + 9 * DAY);
        assert.deepEqual(read, expected.read(series, '1d', 0, T0 + 9 * DAY));
      }
    };
    await expect(first);
    const rest = [...fetches(0, 30, 72), ...fetches(1, 0, 40)];
    for (const batch of rest) await store.writeBatch(batch);
    await expect([...first, ...rest]);
    assert.deepEqual(days(), [T0 / DAY, T0 / DAY, T0 / DAY], 'the stored day, folded into');
    await compactHistory(store, T0 + 8 * DAY, {});
    await expect([...first, ...rest]);
    assert.equal(days().length, 6, 'the next day stored when its 10-minute day was packed');
    await store.close();
  });

  test('a batch failing inside the rollup writer leaves no series behind', async () => {
    const store = createSqlitePriceStore({ path: ':memory:' });
    await store.init();
    const negative = { ...sale('csfloat', -5, 1, MINUTE), itemId: 'other-item' };
    await assert.rejects(
      store.writeBatch({ sides: [ask('csfloat', 1000, 0)], sales: [negative], listings: [] }),
      /non-negative/,
    );
    assert.deepEqual(await store.historyMarkets('cs2', ITEM), []);
    await store.writeBatch({ sides: [ask('csfloat', 1000, 0)], sales: [], listings: [] });
    const rows = await store.readRollups(SERIES.csfloat, '1d', 0, T0 + DAY);
    assert.equal(rows[0]?.ask?.prices.min, 1000);
    const ids = store.db.prepare('SELECT id FROM history_series ORDER BY id').all();
    assert.deepEqual(ids, [{ id: 1 }, { id: 2 }]);
    await store.close();
  });

  test('range reads, packing and retention deletes seek the time-first primary key', async () => {
    const store = createSqlitePriceStore({ path: ':memory:' });
    await store.init();
    const plan = (sql: string) => queryPlan(store.db, sql.replaceAll(/\?|@\w+/g, '1'));
    const statements = prepareRollupStatements(store.db);
    for (const tier of TIERS) {
      const loose = statements.tiers[tier].loose.of(0, true)!;
      const read = plan(loose.selectRange('ask,bid,sales').source);
      assert.match(read, /CO-ROUTINE/);
      assert.match(read, /SEARCH .* USING PRIMARY KEY \(bucket=\? AND series=\?\)/);
      assert.doesNotMatch(read, /TEMP B-TREE/);
      const bucketSeeks = /USING PRIMARY KEY \(bucket=\? AND series>\? AND series<\?\)/;
      assert.match(plan(loose.selectSeriesRange.source), bucketSeeks);
      assert.match(
        plan(loose.expiredRows.through.source),
        /USING PRIMARY KEY \(\(bucket,series\)<\(/,
      );
    }
    await store.close();
  });

  test('a range read seeks only the keys inside its range, whatever marker rows lie below', () => {
    const db = new Database(':memory:');
    db.exec('CREATE TABLE rows (bucket INTEGER, series INTEGER, PRIMARY KEY (bucket, series))');
    db.exec('INSERT INTO rows VALUES (-1, 1), (2990000, 1), (2990005, 1), (2990200, 1)');
    const keys = db.prepare(`${keysOf('rows', 'bucket')} SELECT count(*), min(k), max(k) FROM b`);
    const seek = (from: number, to: number) => keys.raw().get({ from, to });
    assert.deepEqual(seek(0, 4_000_000), [201, 2_990_000, 2_990_200]);
    assert.deepEqual(seek(2_990_001, 2_990_100), [1, 2_990_005, 2_990_005]);
    assert.deepEqual(seek(2_990_006, 2_990_100), [0, null, null]);
    db.close();
  });

  test('a range read opens only the loose tables of the periods in its range', async () => {
    const store = createSqlitePriceStore({ path: ':memory:' });
    await store.init();
    for (const day of [0, 1, 2]) {
      const sides = [ask('skinport', 1234 + day, day * DAY + MINUTE)];
      await store.writeBatch({ sides, sales: [], listings: [] });
    }
    const read = () =>
      Promise.all(
        TIERS.map((tier) => store.readRollups(SERIES.aggregate, tier, T0 + DAY, T0 + 2 * DAY)),
      );
    const before = await read();
    assert.deepEqual(
      before.map((rows) => rows.map((row) => row.ask?.prices.min)),
      [[1235], [1235], [1235]],
    );
    for (const day of [0, 2]) {
      const table = `history.rollups_10m_${(T0 + day * DAY) / DAY}`;
      store.db.exec(`ALTER TABLE ${table} RENAME COLUMN ask TO unreadable`);
    }
    assert.deepEqual(await read(), before, "a read of day 1 fails if it opens day 0's or day 2's");
    await store.close();
  });

  test('a scan can leave out sketches it needs no median of, and nothing else', async () => {
    const store = createSqlitePriceStore({ path: ':memory:' });
    await store.init();
    await store.writeBatch({
      sides: [ask('skinport', 1234, MINUTE), bid('csfloat', 1100, MINUTE)],
      sales: [],
      listings: [],
    });
    await store.writeBatch({
      sides: [ask('skinport', 1300, 2 * MINUTE), bid('csfloat', 1000, 2 * MINUTE)],
      sales: [],
      listings: [],
    });
    const [full] = await store.readRollups(SERIES.aggregate, '10m', 0, T0 + DAY);
    const seen: unknown[] = [];
    await store.scanRollups!(
      SERIES.aggregate,
      '10m',
      0,
      T0 + DAY,
      ['ask', 'bid'],
      (row) => seen.push(structuredClone(row)),
      ['ask'],
    );
    const expected = structuredClone(full!);
    expected.bid!.prices.sketch = [];
    expected.sales = null;
    assert.deepEqual(seen, [expected]);
    assert.ok(full!.bid!.prices.sketch.length > 0);
    await store.close();
  });

  test('a one-observation bucket is a few bytes', async () => {
    const store = createSqlitePriceStore({ path: ':memory:' });
    await store.init();
    await store.writeBatch({ sides: [ask('skinport', 123_456, MINUTE)], sales: [], listings: [] });
    await store.flushRollups();
    const row = store.db
      .prepare<[], { size: number }>(
        `SELECT length(ask) AS size FROM ${looseRows(store.db, '10m')}`,
      )
      .get();
    assert.ok(row && row.size <= 16, `${row?.size} bytes`);
    await store.close();
  });
});
