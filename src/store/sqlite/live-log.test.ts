import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { MINUTE } from '../../domain/clock.ts';
import type { ListingRecord, SalesStatsRecord } from '../../domain/quote.ts';
import { T0, bareListing, listing, sale, sortListings } from '../contract-fixtures.ts';
import { LISTING_CONFIRM_MS } from '../live-writes.ts';
import { migrate } from './migrate.ts';
import { SQLITE_MIGRATIONS } from './migrations.ts';
import { createSqlitePriceStore, type SqlitePriceStore } from './sqlite-price-store.ts';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'sqlite-live-log-'));
after(() => fs.rmSync(root, { recursive: true, force: true }));

function freshFile(): string {
  return path.join(fs.mkdtempSync(path.join(root, 'db-')), 'prices.db');
}

async function open(file: string, minBytes = 0): Promise<SqlitePriceStore> {
  const store = createSqlitePriceStore({ path: file, rollups: false, liveSnapshots: { minBytes } });
  await store.init();
  return store;
}

function stats(overrides: Partial<SalesStatsRecord> = {}): SalesStatsRecord {
  return {
    game: 'cs2',
    itemId: 'ak-47-redline-field-tested',
    market: 'skinport',
    window: '7d',
    volume: 12,
    minPrice: 900,
    maxPrice: null,
    avgPrice: 1010,
    medianPrice: 1000,
    fetchedAt: T0,
    ingestedAt: T0 + 5,
    originalCurrency: 'EUR',
    ...overrides,
  };
}

const batch = (listings: ListingRecord[], salesStats: SalesStatsRecord[] = []) => ({
  sides: [],
  sales: [],
  listings,
  salesStats,
});

/** The table layout's upsert and prune (statements.ts before migration 11), on a map. */
class ReferenceListings {
  readonly held = new Map<string, ListingRecord>();

  write(listings: readonly ListingRecord[]): number {
    let changed = 0;
    for (const next of listings) {
      const key = `${next.game}/${next.market}/${next.listingId}`;
      const stored = this.held.get(key);
      if (stored !== undefined && !replaces(next, stored)) continue;
      this.held.set(key, next);
      changed++;
    }
    return changed;
  }

  prune(market: string, before: number): number {
    let count = 0;
    for (const [key, held] of this.held) {
      if (held.market !== market || held.fetchedAt >= before) continue;
      this.held.delete(key);
      count++;
    }
    return count;
  }
}

function replaces(next: ListingRecord, stored: ListingRecord): boolean {
  const content = ({ fetchedAt: _f, ingestedAt: _i, ...rest }: ListingRecord) =>
    JSON.stringify(rest);
  if (next.fetchedAt >= stored.fetchedAt + LISTING_CONFIRM_MS) return true;
  return next.fetchedAt >= stored.fetchedAt && content(next) !== content(stored);
}

describe('sqlite listings and statistics: change log and snapshots', () => {
  test('batches and prunes in random order read back as the table did, snapshots between', async () => {
    const store = await open(freshFile());
    const reference = new ReferenceListings();
    let seed = 11;
    const next = (bound: number) => {
      seed = (Math.imul(seed, 1_103_515_245) + 12_345) >>> 0;
      return seed % bound;
    };
    for (let round = 0; round < 300; round++) {
      if (next(10) === 0) {
        const market = next(2) === 0 ? 'csfloat' : 'waxpeer';
        const before = T0 + next(round + 1) * MINUTE;
        assert.equal(
          await store.pruneListings('cs2', market, before),
          reference.prune(market, before),
        );
        continue;
      }
      const listings = Array.from({ length: 1 + next(6) }, () =>
        listing({
          listingId: `L-${next(12)}`,
          market: next(2) === 0 ? 'csfloat' : 'waxpeer',
          itemId: `item-${next(4)}`,
          price: 100 + next(3),
          fetchedAt: T0 + (round - next(3)) * MINUTE * 5,
        }),
      );
      const counts = await store.writeBatch(batch(listings));
      assert.equal(counts.listings, reference.write(listings), `round ${round}`);
      if (next(7) === 0) await new Promise(setImmediate);
    }
    const snapshots = store.db.prepare('SELECT count(*) AS n FROM live_snapshots').get();
    assert.deepEqual(snapshots, { n: 2 }, 'both markets were snapshotted on the way');
    const expected = sortListings([...reference.held.values()]);
    assert.deepEqual(sortListings(await store.loadListings('cs2')), expected);
    await store.close();
    const reopened = await open(store.db.name);
    assert.deepEqual(sortListings(await reopened.loadListings('cs2')), expected);
    const left = reopened.db.prepare('SELECT count(*) AS n FROM live_log').get();
    assert.deepEqual(left, { n: 0 }, 'close snapshotted the whole log');
    await reopened.close();
  });

  test('statistics: rewritten only when their content changes, an older fetch never', async () => {
    const store = await open(freshFile());
    await store.writeBatch(batch([], [stats()]));
    const size = () => store.db.prepare('SELECT count(*) AS n FROM live_log').get();
    await store.writeBatch(batch([], [stats({ fetchedAt: T0 + MINUTE })]));
    assert.deepEqual(size(), { n: 1 }, 'the same content is not logged again');
    const moved = stats({ volume: 13, fetchedAt: T0 + 2 * MINUTE });
    await store.writeBatch(batch([], [moved, stats({ volume: 1, fetchedAt: T0 - MINUTE })]));
    assert.deepEqual(await store.loadSalesStats('cs2'), [moved]);
    await store.close();
  });

  test('a second writer on the same file: each sees what the other logged', async () => {
    const file = freshFile();
    const first = await open(file, 1 << 20);
    const second = await open(file, 1 << 20);
    await first.writeBatch(batch([listing()]));
    const repriced = listing({ price: 999, fetchedAt: T0 + MINUTE });
    assert.equal((await second.writeBatch(batch([repriced]))).listings, 1);
    const otherItem = bareListing({ itemId: 'new-item', fetchedAt: T0 + MINUTE });
    await second.writeBatch(batch([otherItem]));
    const again = await first.writeBatch(
      batch([listing({ price: 999, fetchedAt: T0 + 2 * MINUTE })]),
    );
    assert.equal(again.listings, 0, 'the first writer knows the second one stored that content');
    await first.writeBatch(
      batch([bareListing({ itemId: 'third-item', listingId: 'L-3', fetchedAt: T0 + 3 * MINUTE })]),
    );
    assert.equal(await first.pruneListings('cs2', 'csfloat', T0 + 3 * MINUTE), 2);
    assert.deepEqual(
      (await second.loadListings('cs2')).map((held) => held.itemId),
      ['third-item'],
    );
    await second.close();
    await first.close();
  });

  test('a batch that rolls back leaves the writer as the tables are', async () => {
    const store = await open(freshFile());
    const broken = { ...sale(), soldAt: null as unknown as number };
    await assert.rejects(
      store.writeBatch({
        sides: [],
        sales: [broken],
        listings: [listing()],
        salesStats: [stats()],
      }),
    );
    assert.equal((await store.writeBatch(batch([listing()], [stats()]))).listings, 1);
    assert.deepEqual(await store.loadListings('cs2'), [listing()]);
    assert.deepEqual(await store.loadSalesStats('cs2'), [stats()]);
    await store.close();
  });
});

describe('sqlite listings and statistics: the table layout of earlier releases', () => {
  const legacyListings = [
    listing(),
    bareListing(),
    listing({ market: 'waxpeer', listingId: 'W-1' }),
  ];
  const legacyStats = [
    stats(),
    stats({ window: '24h', volume: 0, minPrice: null, avgPrice: null }),
  ];

  function legacyFile(): string {
    const file = freshFile();
    const legacy = new Database(file);
    migrate(legacy, SQLITE_MIGRATIONS.slice(0, 10), () => T0);
    const insertListing = legacy.prepare(`INSERT INTO listings (game, market, listing_id,
      item_id, price, float_value, paint_seed, paint_index, phase, inspect_link, stickers,
      is_stattrak, fetched_at, ingested_at, original_currency)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
    for (const l of legacyListings) {
      insertListing.run(
        ...[l.game, l.market, l.listingId, l.itemId, l.price, l.floatValue, l.paintSeed],
        ...[l.paintIndex, l.phase, l.inspectLink, JSON.stringify(l.stickers)],
        ...[l.isStatTrak ? 1 : 0, l.fetchedAt, l.ingestedAt, l.originalCurrency],
      );
    }
    const insertStats = legacy.prepare(`INSERT INTO sales_stats (game, market, item_id,
      sales_window, volume, min_price, max_price, avg_price, median_price, fetched_at,
      ingested_at, original_currency) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
    for (const s of legacyStats) {
      insertStats.run(
        ...[s.game, s.market, s.itemId, s.window, s.volume, s.minPrice, s.maxPrice],
        ...[s.avgPrice, s.medianPrice, s.fetchedAt, s.ingestedAt, s.originalCurrency],
      );
    }
    legacy.close();
    return file;
  }

  test('opens: its rows become the first snapshots, the tables are dropped', async () => {
    const store = await open(legacyFile());
    const tables = store.db
      .prepare(`SELECT name FROM sqlite_master WHERE name IN ('listings', 'sales_stats')`)
      .all();
    assert.deepEqual(tables, []);
    assert.deepEqual(sortListings(await store.loadListings('cs2')), sortListings(legacyListings));
    const byWindow = (a: SalesStatsRecord, b: SalesStatsRecord) => a.window.localeCompare(b.window);
    assert.deepEqual(
      (await store.loadSalesStats('cs2')).sort(byWindow),
      legacyStats.sort(byWindow),
    );
    assert.equal(await store.isEmpty(), false);
    const same = await store.writeBatch(batch([listing({ fetchedAt: T0 + MINUTE })]));
    assert.equal(same.listings, 0, 'the converted listings are known to the writer');
    assert.equal(await store.pruneListings('cs2', 'csfloat', T0 + 1), 2);
    await store.close();
  });
});
