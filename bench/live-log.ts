/**
 * `npm run bench -- live-log`: bytes written by the SQLite store's listings and sales
 * statistics, the change log with a snapshot per chunk (live-log.ts) against the per-row upserts
 * into `listings` (and its age index) and `sales_stats` they replaced (migrations 1-10 and the
 * statements of main before it, kept here as the baseline), on a model of the full catalogs at
 * the simulator's rates (listingsOf, statsOf). Bytes are the process's `wchar` and
 * `write_bytes` (/proc/self/io, proc(5)) over the measured hours after a warm-up, WAL
 * checkpoints included; both layouts in the same run, on the same batches.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type Database from 'better-sqlite3';
import { HOUR, MINUTE } from '../src/domain/clock.ts';
import type { IngestBatch, ListingRecord, SalesStatsRecord } from '../src/domain/quote.ts';
import { LISTING_CONFIRM_MS } from '../src/store/live-writes.ts';
import { openPrices } from '../src/store/sqlite/connection.ts';
import { migrate } from '../src/store/sqlite/migrate.ts';
import { SQLITE_MIGRATIONS } from '../src/store/sqlite/migrations.ts';
import { createSqlitePriceStore } from '../src/store/sqlite/sqlite-price-store.ts';
import { statsFromRow, type StatsRow } from '../src/store/sqlite/live-tables.ts';
import { listingFromRow, stringInterner, type ListingRow } from '../src/store/sqlite/rows.ts';
import { gbADay, mb, selfIo } from './harness.ts';

const T0 = 1_793_491_200_000;
const WARM_HOURS = Number(process.env.LIVE_LOG_WARM_HOURS ?? 3);
const HOURS = Number(process.env.LIVE_LOG_HOURS ?? 3);
/** Listings unseen this long are pruned (DEFAULT_RETENTION), every RETENTION_EVERY. */
const UNSEEN_MS = 2 * HOUR;
const RETENTION_EVERY = 10 * MINUTE;

/**
 * Markets with individual listings: cadence in minutes and the items with listings in a fetch
 * (the simulator's, averaged over 8 fetches of cs2 an hour apart; 11 listings each, about the
 * simulator's 87, 174, 104, 106, 39 and 78 listings a fetch). A third of them are among the
 * items always deep, the rest rotate through the pool (sim/world.ts's depth slice).
 */
const LISTING_MARKETS = [
  ['waxpeer', 1, 8],
  ['dmarket', 2, 16],
  ['buff163', 2.5, 10],
  ['csfloat', 3, 9],
  ['whitemarket', 10, 4],
  ['avanmarket', 15, 7],
] as const;
const POOL = 6_000;
/** Listings of a deep item (8-14 slots in the simulator). */
const SLOTS = 11;
/** An item's best ask on a market moves about every 20 minutes (5% of 1-minute fetches). */
const ASK_PERIOD = 20 * MINUTE;
/** Skinport: 4 windows of 1,375 items a fetch, every 5 minutes; 25-40% of rows change. */
const STATS_ITEMS = 1_375;
const WINDOWS = ['24h', '7d', '30d', '90d'] as const;
const STATS_EVERY = 5 * MINUTE;

function mix(a: number, b: number): number {
  let h = Math.imul(a ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(b + 0x632be5ab, 0xc2b2ae35);
  h ^= h >>> 15;
  h = Math.imul(h, 0x2c1b3c6d);
  return (h ^ (h >>> 12)) >>> 0;
}

const unit = (a: number, b: number) => mix(a, b) / 4294967296;

function itemName(index: number): string {
  return `StatTrak™ Model ${index % 97} | Finish ${index} (Field-Tested)`;
}

/**
 * Listings of a fetch as the simulator makes them: each slot's listing lives 2-72 hours (id,
 * float, seed, stickers fixed while it lives), priced from the item's best ask, which moves
 * on 5% of fetches.
 */
function listingsOf(market: number, fetch: number, at: number): ListingRecord[] {
  const out: ListingRecord[] = [];
  const items: number[] = [];
  const deep = LISTING_MARKETS[market]![2];
  const always = Math.round(deep / 3);
  for (let item = 0; item < always; item++) items.push(item);
  const start = (fetch * (deep - always)) % POOL;
  for (let offset = 0; offset < deep - always; offset++)
    items.push(always + ((start + offset) % POOL));
  for (const item of items) {
    const key = mix(market, item);
    const epoch = Math.floor((at + unit(key, 7) * ASK_PERIOD) / ASK_PERIOD);
    const ask = 500 + (key % 50_000) + (mix(key, epoch) % 40);
    for (let slot = 0; slot < SLOTS; slot++) {
      const lifetime = (2 + unit(key, 301 + slot) * 70) * HOUR;
      const generation = Math.floor((at + unit(key, 302 + slot) * lifetime) / lifetime);
      const id = mix(mix(key, slot), generation);
      out.push({
        game: 'cs2',
        itemId: itemName(item),
        market: LISTING_MARKETS[market]![0],
        listingId: `${id.toString(36)}${mix(id, 1).toString(36)}`,
        price: ask + slot * 7,
        floatValue: unit(id, 2),
        paintSeed: id % 1000,
        paintIndex: 282,
        phase: null,
        inspectLink: `steam://rungame/730/76561202255233023/+csgo_econ_action_preview%20S7656119${8_000_000_000 + (mix(id, 50) % 1_999_999_999)}A${30_000_000_000 + (mix(id, 51) % 9_000_000_000)}D${mix(id, 52)}${mix(id, 53)}`,
        stickers: unit(id, 40) < 0.3 ? ['Sticker | Crown (Foil)'] : [],
        isStatTrak: true,
        fetchedAt: at,
        ingestedAt: at + 150,
        originalCurrency: 'USD',
      });
    }
  }
  return out;
}

/** Skinport's statistics: every item and window each fetch, a third of them moved. */
function statsOf(fetch: number, at: number): SalesStatsRecord[] {
  const out: SalesStatsRecord[] = [];
  for (let item = 0; item < STATS_ITEMS; item++) {
    for (let w = 0; w < WINDOWS.length; w++) {
      const moved = (fetch === 0 ? 0 : mix(item * 4 + w, fetch) % 100 < 33 ? fetch : 0) + item;
      const base = 100 + (mix(item, w) % 20_000);
      out.push({
        game: 'cs2',
        market: 'skinport',
        itemId: itemName(item),
        window: WINDOWS[w]!,
        volume: moved % 500,
        minPrice: base - (moved % 50),
        maxPrice: base + (moved % 70),
        avgPrice: base + (moved % 9),
        medianPrice: base,
        fetchedAt: at,
        ingestedAt: at + 100,
        originalCurrency: 'EUR',
      });
    }
  }
  return out;
}

/** Every batch of the model in time order, and the retention passes between them. */
function* timeline(hours: number, fromMs: number): Generator<IngestBatch | { pruneAt: number }> {
  const counts = LISTING_MARKETS.map(() => 0);
  let statsFetch = 0;
  for (let at = fromMs; at < fromMs + hours * HOUR; at += 30_000) {
    for (let m = 0; m < LISTING_MARKETS.length; m++) {
      const every = LISTING_MARKETS[m]![1] * MINUTE;
      if ((at - T0) % every >= 30_000) continue;
      const fetch = Math.floor((at - T0) / every);
      counts[m] = counts[m]! + 1;
      yield { sides: [], sales: [], listings: listingsOf(m, fetch, at) };
    }
    if ((at - T0) % STATS_EVERY < 30_000) {
      yield { sides: [], sales: [], listings: [], salesStats: statsOf(statsFetch++, at) };
    }
    if ((at - T0) % RETENTION_EVERY < 30_000) yield { pruneAt: at };
  }
}

interface Layout {
  write(batch: IngestBatch): Promise<void>;
  prune(now: number): Promise<number>;
  checkpoint(): void;
  load(): Promise<{ listings: ListingRecord[]; stats: SalesStatsRecord[] }>;
  close(): Promise<void>;
}

/** The upserts of main before the live log (statements.ts, live-tables.ts). */
const UPSERT_LISTING = `
  INSERT INTO listings (game, market, listing_id, item_id, price, float_value, paint_seed,
    paint_index, phase, inspect_link, stickers, is_stattrak, fetched_at, ingested_at,
    original_currency)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
  ON CONFLICT (game, market, listing_id) DO UPDATE SET
    item_id = excluded.item_id, price = excluded.price, float_value = excluded.float_value,
    paint_seed = excluded.paint_seed, paint_index = excluded.paint_index,
    phase = excluded.phase, inspect_link = excluded.inspect_link,
    stickers = excluded.stickers, is_stattrak = excluded.is_stattrak,
    fetched_at = excluded.fetched_at, ingested_at = excluded.ingested_at,
    original_currency = excluded.original_currency
  WHERE excluded.fetched_at >= listings.fetched_at + ${LISTING_CONFIRM_MS}
    OR (excluded.fetched_at >= listings.fetched_at
      AND (excluded.item_id, excluded.price, excluded.float_value, excluded.paint_seed,
          excluded.paint_index, excluded.phase, excluded.inspect_link, excluded.stickers,
          excluded.is_stattrak, excluded.original_currency)
      IS NOT (listings.item_id, listings.price, listings.float_value, listings.paint_seed,
        listings.paint_index, listings.phase, listings.inspect_link, listings.stickers,
        listings.is_stattrak, listings.original_currency))`;
const UPSERT_STATS = `
  INSERT INTO sales_stats (game, market, item_id, sales_window, volume, min_price, max_price,
    avg_price, median_price, fetched_at, ingested_at, original_currency)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
  ON CONFLICT (game, market, item_id, sales_window) DO UPDATE SET
    volume = excluded.volume, min_price = excluded.min_price,
    max_price = excluded.max_price, avg_price = excluded.avg_price,
    median_price = excluded.median_price, fetched_at = excluded.fetched_at,
    ingested_at = excluded.ingested_at, original_currency = excluded.original_currency
  WHERE excluded.fetched_at >= sales_stats.fetched_at`;

const LISTINGS_SELECT = `SELECT game, item_id, market, listing_id, price, float_value, paint_seed,
  paint_index, phase, inspect_link, stickers, is_stattrak, fetched_at, ingested_at,
  original_currency FROM listings`;
const STATS_SELECT = `SELECT game, market, item_id, sales_window, volume, min_price, max_price,
  avg_price, median_price, fetched_at, ingested_at, original_currency FROM sales_stats`;

function tableLayout(file: string): Layout {
  const db: Database.Database = openPrices(file);
  migrate(db, SQLITE_MIGRATIONS.slice(0, 10), () => T0);
  const listing = db.prepare(UPSERT_LISTING);
  const stats = db.prepare(UPSERT_STATS);
  const prune = db.prepare('DELETE FROM listings WHERE game = ? AND market = ? AND fetched_at < ?');
  const commit = db.transaction((batch: IngestBatch) => {
    for (const l of batch.listings) {
      listing.run(
        ...[l.game, l.market, l.listingId, l.itemId, l.price, l.floatValue, l.paintSeed],
        ...[l.paintIndex, l.phase, l.inspectLink, JSON.stringify(l.stickers)],
        ...[l.isStatTrak ? 1 : 0, l.fetchedAt, l.ingestedAt, l.originalCurrency],
      );
    }
    for (const s of batch.salesStats ?? []) {
      stats.run(
        ...[s.game, s.market, s.itemId, s.window, s.volume, s.minPrice, s.maxPrice],
        ...[s.avgPrice, s.medianPrice, s.fetchedAt, s.ingestedAt, s.originalCurrency],
      );
    }
  });
  return {
    write: async (batch) => void commit(batch),
    prune: async (now) => {
      let count = 0;
      for (const [market] of LISTING_MARKETS)
        count += prune.run('cs2', market, now - UNSEEN_MS).changes;
      return count;
    },
    checkpoint: () => void db.pragma('wal_checkpoint(TRUNCATE)'),
    load: async () => {
      const intern = stringInterner();
      const listings = db.prepare<[], ListingRow>(LISTINGS_SELECT).raw().all();
      const stats = db.prepare<[], StatsRow>(STATS_SELECT).raw().all();
      return {
        listings: listings.map((row) => listingFromRow(row, intern)),
        stats: stats.map(statsFromRow),
      };
    },
    close: async () => void db.close(),
  };
}

async function logLayout(file: string): Promise<Layout> {
  const store = createSqlitePriceStore({ path: file, rollups: false });
  await store.init();
  return {
    write: async (batch) => void (await store.writeBatch(batch)),
    prune: async (now) => {
      let count = 0;
      for (const [market] of LISTING_MARKETS)
        count += await store.pruneListings('cs2', market, now - UNSEEN_MS);
      return count;
    },
    checkpoint: () => void store.db.pragma('wal_checkpoint(TRUNCATE)'),
    load: async () => ({
      listings: await store.loadListings('cs2'),
      stats: await store.loadSalesStats('cs2'),
    }),
    close: () => store.close(),
  };
}

interface Measured {
  wchar: number;
  written: number;
  cpuMs: number;
  loadMs: number;
  listings: number;
  stats: number;
  records: number;
  pruned: number;
}

async function run(layout: Layout, hours: number, from: number, counts?: Measured): Promise<void> {
  for (const step of timeline(hours, from)) {
    if ('pruneAt' in step) {
      const pruned = await layout.prune(step.pruneAt);
      if (counts) counts.pruned += pruned;
      continue;
    }
    await layout.write(step);
    if (counts) counts.records += step.listings.length + (step.salesStats?.length ?? 0);
    await new Promise(setImmediate);
  }
}

async function measure(layout: Layout): Promise<Measured> {
  await run(layout, WARM_HOURS, T0);
  layout.checkpoint();
  const counts: Measured = {
    wchar: 0,
    written: 0,
    cpuMs: 0,
    loadMs: 0,
    listings: 0,
    stats: 0,
    records: 0,
    pruned: 0,
  };
  const before = selfIo();
  const cpu = process.cpuUsage();
  await run(layout, HOURS, T0 + WARM_HOURS * HOUR, counts);
  layout.checkpoint();
  const after = selfIo();
  const used = process.cpuUsage(cpu);
  counts.cpuMs = (used.user + used.system) / 1000;
  counts.wchar = after.wchar - before.wchar;
  counts.written = after.written - before.written;
  const loadCpu = process.cpuUsage();
  const held = await layout.load();
  const loadUsed = process.cpuUsage(loadCpu);
  counts.loadMs = (loadUsed.user + loadUsed.system) / 1000;
  counts.listings = held.listings.length;
  counts.stats = held.stats.length;
  await layout.close();
  return counts;
}

export async function benchLiveLog(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-live-log-'));
  try {
    const table = await measure(tableLayout(path.join(dir, 'table.db')));
    const log = await measure(await logLayout(path.join(dir, 'log', 'prices.db')));
    const load = os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ');
    console.log(
      `${WARM_HOURS} h warm-up, then ${HOURS} h measured: ${LISTING_MARKETS.length} listing markets (4-16 items × ${SLOTS} listings a fetch), skinport statistics (${STATS_ITEMS} items × ${WINDOWS.length} windows every 5 min, a third moved), retention every 10 min; load ${load}`,
    );
    const line = (name: string, r: Measured) =>
      `${name}: wchar ${mb(r.wchar)} (${gbADay(r.wchar, HOURS)}), write_bytes ${mb(r.written)} (${gbADay(r.written, HOURS)}), ` +
      `${r.records} records written, ${r.pruned} pruned, CPU ${(r.cpuMs / 1000).toFixed(1)} s; ` +
      `holds ${r.listings} listings and ${r.stats} statistics, read back in ${r.loadMs.toFixed(0)} ms CPU`;
    console.log(line('upsert into listings and sales_stats (before)', table));
    console.log(line('change log + snapshots (after)', log));
    console.log(
      `after / before: wchar ${(log.wchar / table.wchar).toFixed(3)}×, write_bytes ${(log.written / Math.max(1, table.written)).toFixed(3)}×`,
    );
    if (log.listings !== table.listings || log.stats !== table.stats) {
      throw new Error('the two layouts hold different records');
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
