/**
 * `npm run bench -- sides-log`: bytes written by the SQLite store's latest sides, the change log
 * with compact snapshots (side-log.ts, side-snapshot.ts) against the per-side upsert into
 * `side_snapshots` it replaced (kept here as the baseline), on a model of the full catalogs:
 * 21 markets × 15,000 items × 2 sides, every fetch one market's whole book with 5% of its sides
 * changed. Bytes are the process's `wchar` and `write_bytes` (/proc/self/io, proc(5)) over the
 * fetches after the first fill, WAL checkpoints included; both layouts in the same run.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import type Database from 'better-sqlite3';
import { MARKET_IDS, type MarketId } from '../src/domain/markets.ts';
import type { SideSnapshot } from '../src/domain/quote.ts';
import { encodeLevelsTransient } from '../src/store/level-codec.ts';
import { sideFromRow, stringInterner, type SideRow } from '../src/store/row-decoding.ts';
import { openPrices } from '../src/store/sqlite/connection.ts';
import { createSqlitePriceStore } from '../src/store/sqlite/sqlite-price-store.ts';
import { mb } from './harness.ts';

const MARKETS = MARKET_IDS.slice(0, 21);
const ITEMS = 15_000;
const CHANGED = 0.05;
const T0 = 1_793_491_200_000;
/** Idle time after each fetch (the real ingest waits for the network), same for both layouts. */
const IDLE_MS = 20;

/** The table and upsert of releases before issue 31 (migration 1, statements.ts then). */
const TABLE = `CREATE TABLE side_snapshots (
  game TEXT NOT NULL, item_id TEXT NOT NULL, market TEXT NOT NULL,
  side TEXT NOT NULL CHECK (side IN ('ask', 'bid')), levels BLOB NOT NULL,
  listing_count INTEGER, total_quantity INTEGER NOT NULL, fetched_at INTEGER NOT NULL,
  ingested_at INTEGER NOT NULL, source_updated_at INTEGER, source_time_kind TEXT,
  original_currency TEXT NOT NULL, PRIMARY KEY (game, market, item_id, side)
) STRICT, WITHOUT ROWID`;
const UPSERT = `INSERT INTO side_snapshots (game, item_id, market, side, levels, listing_count,
    total_quantity, fetched_at, ingested_at, source_updated_at, source_time_kind, original_currency)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
  ON CONFLICT (game, market, item_id, side) DO UPDATE SET
    levels = excluded.levels, listing_count = excluded.listing_count,
    total_quantity = excluded.total_quantity, fetched_at = excluded.fetched_at,
    ingested_at = excluded.ingested_at, source_updated_at = excluded.source_updated_at,
    source_time_kind = excluded.source_time_kind, original_currency = excluded.original_currency
  WHERE (excluded.fetched_at > side_snapshots.fetched_at
      AND (excluded.levels, excluded.listing_count, excluded.total_quantity,
        excluded.source_time_kind, excluded.original_currency)
      IS NOT (side_snapshots.levels, side_snapshots.listing_count, side_snapshots.total_quantity,
        side_snapshots.source_time_kind, side_snapshots.original_currency))
    OR (excluded.fetched_at = side_snapshots.fetched_at
      AND (excluded.levels, excluded.listing_count, excluded.total_quantity,
        excluded.source_updated_at, excluded.source_time_kind, excluded.original_currency)
      IS NOT (side_snapshots.levels, side_snapshots.listing_count, side_snapshots.total_quantity,
        side_snapshots.source_updated_at, side_snapshots.source_time_kind,
        side_snapshots.original_currency))`;
const SELECT = `SELECT game, item_id, market, side, levels, listing_count, total_quantity,
  fetched_at, ingested_at, source_updated_at, source_time_kind, original_currency
  FROM side_snapshots WHERE game = ?`;

/** A deterministic catalog and its price drift: the same fetches for both layouts. */
class CatalogModel {
  readonly names = Array.from(
    { length: ITEMS },
    (_, index) => `StatTrak™ Model ${index % 97} | Finish ${index} (Field-Tested)`,
  );
  private readonly prices = new Int32Array(MARKETS.length * ITEMS * 2);
  private seed = 7;

  constructor() {
    for (let index = 0; index < this.prices.length; index++)
      this.prices[index] = 100 + this.next(50_000);
  }

  /** Fetch f: its market's whole book, CHANGED of its sides with a new price. */
  fetch(f: number, changing: boolean): SideSnapshot[] {
    const m = f % MARKETS.length;
    const at = T0 + f * 1000;
    const sides: SideSnapshot[] = [];
    for (let item = 0; item < ITEMS; item++) {
      for (const bid of [0, 1]) {
        const slot = (m * ITEMS + item) * 2 + bid;
        if (changing && this.next(1000) < CHANGED * 1000)
          this.prices[slot] = this.prices[slot]! + 1 + this.next(20);
        sides.push(this.side(MARKETS[m]!, item, bid === 1, this.prices[slot]!, at));
      }
    }
    return sides;
  }

  private side(
    market: MarketId,
    item: number,
    bid: boolean,
    price: number,
    at: number,
  ): SideSnapshot {
    const step = bid ? -5 : 5;
    return {
      game: 'cs2',
      itemId: this.names[item]!,
      market,
      side: bid ? 'bid' : 'ask',
      levels: [0, 1, 2, 3].map((level) => ({
        price: price + level * step,
        quantity: 1 + level,
        orders: null,
      })),
      listingCount: 10 + (price % 7),
      totalQuantity: 10,
      fetchedAt: at,
      ingestedAt: at + 150,
      sourceUpdatedAt: null,
      sourceTimeKind: null,
      originalCurrency: 'USD',
    };
  }

  private next(bound: number): number {
    this.seed = (Math.imul(this.seed, 1_103_515_245) + 12_345) >>> 0;
    return this.seed % bound;
  }
}

function io(): { wchar: number; written: number } {
  const text = fs.readFileSync('/proc/self/io', 'utf8');
  const field = (name: string) => Number(new RegExp(`^${name}: (\\d+)$`, 'm').exec(text)?.[1] ?? 0);
  return { wchar: field('wchar'), written: field('write_bytes') };
}

interface Layout {
  write(sides: SideSnapshot[]): Promise<void>;
  checkpoint(): void;
  load(): Promise<number>;
  close(): Promise<void>;
}

function upsertLayout(file: string): Layout {
  const db: Database.Database = openPrices(file);
  db.exec(TABLE);
  const upsert = db.prepare(UPSERT);
  const select = db.prepare<[string], SideRow>(SELECT).raw();
  const commit = db.transaction((sides: SideSnapshot[]) => {
    for (const s of sides) {
      upsert.run(
        s.game,
        s.itemId,
        s.market,
        s.side,
        encodeLevelsTransient(s.levels),
        s.listingCount,
        s.totalQuantity,
        s.fetchedAt,
        s.ingestedAt,
        s.sourceUpdatedAt,
        s.sourceTimeKind,
        s.originalCurrency,
      );
    }
  });
  return {
    write: async (sides) => void commit(sides),
    checkpoint: () => void db.pragma('wal_checkpoint(TRUNCATE)'),
    load: async () => {
      const intern = stringInterner();
      let count = 0;
      for (const row of select.iterate('cs2')) count += sideFromRow(row, intern) ? 1 : 0;
      return count;
    },
    close: async () => void db.close(),
  };
}

interface Steps {
  count: number;
  ms: number[];
  switches: number;
}

async function logLayout(
  file: string,
  steps: Steps,
): Promise<Layout & { snapshotBytes(): number; logBytes(): number }> {
  const onStep = (step: string, ms: number) => {
    steps.count++;
    steps.ms.push(ms);
    if (step === 'switch') steps.switches++;
  };
  const store = createSqlitePriceStore({ path: file, rollups: false, sideSnapshots: { onStep } });
  await store.init();
  const bytesOf = (sql: string) => (store.db.prepare(sql).raw().get() as [number])[0];
  return {
    write: async (sides) => void (await store.writeBatch({ sides, sales: [], listings: [] })),
    checkpoint: () => void store.db.pragma('wal_checkpoint(TRUNCATE)'),
    load: async () => (await store.loadSides('cs2')).length,
    close: () => store.close(),
    snapshotBytes: () =>
      bytesOf(
        'SELECT total(length(entries)) FROM side_parts WHERE generation = (SELECT generation FROM side_state)',
      ),
    logBytes: () =>
      bytesOf(
        'SELECT total(length(entries)) FROM side_log WHERE id > (SELECT log_through FROM side_state)',
      ),
  };
}

function quantile(values: number[], q: number): string {
  const sorted = [...values].sort((a, b) => a - b);
  return (sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0).toFixed(1);
}

/** Waits IDLE_MS, and on while the store keeps stepping a snapshot (the ingest is idle then). */
async function idle(steps?: Steps): Promise<void> {
  for (;;) {
    const before = steps?.count ?? 0;
    await new Promise((resolve) => setTimeout(resolve, IDLE_MS));
    if ((steps?.count ?? 0) === before) return;
  }
}

async function measure(
  layout: Layout,
  fetches: number,
  steps?: Steps,
): Promise<{ wchar: number; written: number; seconds: number; restartMs: number }> {
  const model = new CatalogModel();
  for (let m = 0; m < MARKETS.length; m++) await layout.write(model.fetch(m, false));
  layout.checkpoint();
  const before = io();
  const started = performance.now();
  for (let f = MARKETS.length; f < MARKETS.length + fetches; f++) {
    await layout.write(model.fetch(f, true));
    await idle(steps);
  }
  layout.checkpoint();
  const after = io();
  const seconds = (performance.now() - started) / 1000;
  const loadStarted = performance.now();
  const loaded = await layout.load();
  const restartMs = performance.now() - loadStarted;
  if (loaded !== MARKETS.length * ITEMS * 2) throw new Error(`loaded ${loaded} sides`);
  return {
    wchar: after.wchar - before.wchar,
    written: after.written - before.written,
    seconds,
    restartMs,
  };
}

export async function benchSidesLog(
  fetches = Number(process.env.SIDES_LOG_FETCHES ?? 126),
): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-sides-log-'));
  try {
    const upsert = await measure(upsertLayout(path.join(dir, 'upsert.db')), fetches);
    const steps: Steps = { count: 0, ms: [], switches: 0 };
    const log = await logLayout(path.join(dir, 'log', 'prices.db'), steps);
    const arrayBefore = process.memoryUsage().arrayBuffers;
    const logged = await measure(log, fetches, steps);
    const printsBytes = process.memoryUsage().arrayBuffers - arrayBefore;
    const sizes = `snapshot ${mb(log.snapshotBytes())}, log since ${mb(log.logBytes())}`;
    await log.close();
    const line = (name: string, r: typeof upsert) =>
      `${name}: wchar ${mb(r.wchar)} (${mb(r.wchar / fetches)} a fetch), write_bytes ${mb(r.written)}, ` +
      `${r.seconds.toFixed(1)} s, all sides read back in ${r.restartMs.toFixed(0)} ms`;
    console.log(
      `${fetches} fetches after the fill, 21 markets × ${ITEMS} items × 2 sides, ${CHANGED * 100}% changed a fetch; load ${os
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}`,
    );
    console.log(line('upsert into side_snapshots (before)', upsert));
    console.log(line('change log + snapshots (after)', logged));
    console.log(
      `after / before: wchar ${(logged.wchar / upsert.wchar).toFixed(3)}×, write_bytes ${(logged.written / Math.max(1, upsert.written)).toFixed(3)}×; ` +
        `${steps.switches} snapshots in ${steps.count} steps, step median ${quantile(steps.ms, 0.5)} ms, p99 ${quantile(steps.ms, 0.99)} ms, longest ${quantile(steps.ms, 1)} ms; ${sizes}; ` +
        `array buffers after fill and run (fingerprints) +${mb(printsBytes)}`,
    );
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
