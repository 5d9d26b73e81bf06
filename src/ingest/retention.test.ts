import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { applyRetention, DEFAULT_RETENTION } from './retention.ts';
import { DAY, HOUR, manualClock, MINUTE } from '../domain/clock.ts';
import { createSqlitePriceStore } from '../store/sqlite/sqlite-price-store.ts';
import { looseRows } from '../store/sqlite/test-support.ts';
import type { ListingRecord, SideSnapshot } from '../domain/quote.ts';

function listing(listingId: string, fetchedAt: number): ListingRecord {
  return {
    game: 'cs2',
    itemId: 'cs2_a',
    market: 'csfloat',
    listingId,
    price: 1000,
    floatValue: 0.2,
    paintSeed: 1,
    paintIndex: null,
    phase: null,
    inspectLink: null,
    stickers: [],
    isStatTrak: false,
    fetchedAt,
    ingestedAt: fetchedAt,
    originalCurrency: 'USD',
  };
}

function quote(fetchedAt: number): SideSnapshot {
  return {
    game: 'cs2',
    itemId: 'cs2_a',
    market: 'csfloat',
    side: 'ask',
    levels: [{ price: 1000, quantity: 1, orders: 1 }],
    listingCount: 1,
    totalQuantity: 1,
    fetchedAt,
    ingestedAt: fetchedAt,
    sourceUpdatedAt: null,
    sourceTimeKind: null,
    originalCurrency: 'USD',
  };
}

describe('retention', () => {
  test('listings unseen for longer than the window are removed, to the millisecond', async () => {
    const store = createSqlitePriceStore({ path: ':memory:' });
    await store.init();
    const now = 10 * HOUR;
    const edge = now - DEFAULT_RETENTION.listingsUnseenMs;
    await store.writeBatch({
      sides: [],
      sales: [],
      listings: [listing('old', edge - 1), listing('edge', edge), listing('new', now)],
    });
    assert.equal(await applyRetention(store, now), 1);
    const left = (await store.loadListings('cs2')).map((l) => l.listingId).sort();
    assert.deepEqual(left, ['edge', 'new']);
    await store.close();
  });

  test('expired 10-minute rollups are compacted; hourly ones stay', async () => {
    const store = createSqlitePriceStore({ path: ':memory:' });
    await store.init();
    const t0 = Date.parse('2026-01-01T00:00:00Z');
    await store.writeBatch({ sides: [quote(t0)], sales: [], listings: [] });
    const series = { game: 'cs2' as const, itemId: 'cs2_a', market: 'csfloat' as const };
    const range = [t0 - DAY, t0 + DAY] as const;
    assert.equal((await store.readRollups(series, '10m', ...range)).length, 1);
    await applyRetention(store, t0 + 100 * DAY);
    assert.equal((await store.readRollups(series, '10m', ...range)).length, 0);
    assert.equal((await store.readRollups(series, '1h', ...range)).length, 1);
    await store.close();
  });

  test('settled days of 10-minute buckets are packed into pages', async () => {
    const store = createSqlitePriceStore({ path: ':memory:' });
    await store.init();
    const t0 = Date.parse('2026-01-01T00:00:00Z');
    for (let bucket = 0; bucket < 12; bucket += 1) {
      const fetchedAt = t0 + bucket * 10 * MINUTE;
      await store.writeBatch({ sides: [quote(fetchedAt)], sales: [], listings: [] });
    }
    const sql = () => `SELECT count(*) FROM ${looseRows(store.db, '10m')}`;
    const rows = () => store.db.prepare(sql()).pluck().get();
    const series = { game: 'cs2' as const, itemId: 'cs2_a', market: 'csfloat' as const };
    const before = await store.readRollups(series, '10m', t0, t0 + DAY);
    const pages = () => store.db.prepare('SELECT count(*) FROM history.pages_10m').pluck().get();
    await applyRetention(store, t0 + DAY + HOUR - 1);
    assert.deepEqual([rows(), pages()], [2 * 12, 0], 'the day settles an hour after it ends');
    await applyRetention(store, t0 + DAY + HOUR);
    assert.deepEqual([rows(), pages()], [0, 2], 'one page for the market, one for the aggregate');
    assert.deepEqual(await store.readRollups(series, '10m', t0, t0 + DAY), before);
    await store.close();
  });

  test('a pass leaves the open 10-minute bucket to its boundary fold: each row written once', async () => {
    const t0 = Date.parse('2026-01-01T00:00:00Z');
    const clock = manualClock(t0);
    const store = createSqlitePriceStore({ path: ':memory:', clock });
    await store.init();
    const day = `history.rollups_10m_${t0 / DAY}`;
    store.db.exec(`CREATE TABLE ${day} (bucket INTEGER NOT NULL, series INTEGER NOT NULL,
        ask BLOB, bid BLOB, sales BLOB, PRIMARY KEY (bucket, series)) STRICT, WITHOUT ROWID;
      CREATE TEMP TABLE row_writes (bucket INTEGER);
      CREATE TEMP TRIGGER row_inserted AFTER INSERT ON ${day}
        BEGIN INSERT INTO row_writes VALUES (new.bucket); END;
      CREATE TEMP TRIGGER row_updated AFTER UPDATE ON ${day}
        BEGIN INSERT INTO row_writes VALUES (new.bucket); END;`);
    const observe = async (offset: number) => {
      clock.set(t0 + offset);
      await store.writeBatch({ sides: [quote(t0 + offset)], sales: [], listings: [] });
    };
    await observe(MINUTE);
    await observe(11 * MINUTE);
    await applyRetention(store, clock.now());
    await observe(15 * MINUTE);
    await applyRetention(store, clock.now());
    await observe(26 * MINUTE); // the second period's grace has passed
    const writes = store.db
      .prepare('SELECT bucket, count(*) FROM row_writes GROUP BY bucket ORDER BY bucket')
      .raw()
      .all();
    const bucket = t0 / (10 * MINUTE);
    assert.deepEqual(
      writes,
      [
        [bucket, 2],
        [bucket + 1, 2],
      ],
      "the aggregate's row and the market's chunk per bucket, each written once",
    );
    const series = { game: 'cs2' as const, itemId: 'cs2_a', market: 'csfloat' as const };
    const [, open] = await store.readRollups(series, '10m', t0, t0 + HOUR);
    assert.equal(open?.ask?.prices.n, 2, 'the boundary fold wrote the bucket complete');
    await store.close();
  });

  test('an early observation stops forcing folds once a fold took it', async () => {
    const t0 = Date.parse('2026-01-01T00:00:00Z');
    const clock = manualClock(t0 + MINUTE);
    const store = createSqlitePriceStore({ path: ':memory:', clock });
    await store.init();
    await store.writeBatch({ sides: [quote(t0 - 2 * DAY)], sales: [], listings: [] });
    await store.flushRollups();
    await store.writeBatch({ sides: [quote(t0 + MINUTE)], sales: [], listings: [] });
    await applyRetention(store, clock.now());
    const open = store.db
      .prepare(`SELECT count(*) FROM ${looseRows(store.db, '10m')} WHERE bucket = ?`)
      .pluck()
      .get(t0 / (10 * MINUTE));
    assert.equal(open, 0, 'the open bucket waits for its boundary');
    await store.close();
  });

  test('a pass still folds what the open period observed before its cutoff', async () => {
    const t0 = Date.parse('2026-01-01T00:00:00Z');
    const clock = manualClock(t0 + MINUTE);
    const store = createSqlitePriceStore({ path: ':memory:', clock });
    await store.init();
    await store.writeBatch({ sides: [quote(t0 - 2 * DAY)], sales: [], listings: [] });
    await applyRetention(store, clock.now());
    const pages = () => store.db.prepare('SELECT count(*) FROM history.pages_10m').pluck().get();
    assert.equal(pages(), 2, 'the late observation was folded and its settled day packed');
    await store.close();
  });
});
