/**
 * Opens a data dir of the table layout (`listings` and `sales_stats`, one row per record,
 * releases before migration 11): in one transaction at init, each (game, market) of either
 * table becomes that chunk's first snapshot in the live log (live-log.ts) and both tables are
 * dropped. A crash before the commit leaves the tables, and the next open converts again.
 */
import type Database from 'better-sqlite3';
import type { Game } from '../../domain/games.ts';
import type { MarketId } from '../../domain/markets.ts';
import { stringInterner } from '../row-decoding.ts';
import { encodeRows, LISTINGS, SALES_STATS, type LiveKind, type LiveRow } from './live-kinds.ts';
import type { LiveLogStatements } from './live-log-tables.ts';
import { statsFromRow, type StatsRow } from './live-tables.ts';
import { listingFromRow, type ListingRow } from './rows.ts';
import type { SideItems, Undo } from './side-prints.ts';

const LISTING_SELECT = `SELECT game, item_id, market, listing_id, price, float_value, paint_seed,
  paint_index, phase, inspect_link, stickers, is_stattrak, fetched_at, ingested_at,
  original_currency FROM listings`;
const STATS_SELECT = `SELECT game, market, item_id, sales_window, volume, min_price, max_price,
  avg_price, median_price, fetched_at, ingested_at, original_currency FROM sales_stats`;

function hasTable(db: Database.Database, name: string): boolean {
  return db.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?`).get(name)
    ? true
    : false;
}

function copy<R extends { game: Game; market: MarketId; itemId: string }>(
  records: Iterable<R>,
  kind: LiveKind<R>,
  s: LiveLogStatements,
  items: SideItems,
  undo: Undo,
): void {
  const chunks = new Map<string, { game: Game; market: MarketId; rows: LiveRow[] }>();
  for (const record of records) {
    const id = `${record.game}\n${record.market}`;
    const chunk = chunks.get(id) ?? { game: record.game, market: record.market, rows: [] };
    chunks.set(id, chunk);
    chunk.rows.push(kind.rowOf(record, items.codeFor(record.game, record.itemId, undo)));
  }
  for (const { game, market, rows } of chunks.values()) {
    s.putSnapshot.run(kind.name, game, market, 0, encodeRows(rows));
  }
}

function* mapped<Row, R>(rows: Iterable<Row>, map: (row: Row) => R): Generator<R> {
  for (const row of rows) yield map(row);
}

/** Converts the table layout if this data dir has it; whether it did. */
export function convertLiveTables(
  db: Database.Database,
  s: LiveLogStatements,
  items: SideItems,
): boolean {
  const undo: Undo = [];
  const convert = db.transaction(() => {
    if (!hasTable(db, 'listings')) return false;
    items.refresh();
    const intern = stringInterner();
    const listings = db.prepare<[], ListingRow>(LISTING_SELECT).raw().all();
    copy(
      mapped(listings, (row) => listingFromRow(row, intern)),
      LISTINGS,
      s,
      items,
      undo,
    );
    const stats = db.prepare<[], StatsRow>(STATS_SELECT).raw().all();
    copy(mapped(stats, statsFromRow), SALES_STATS, s, items, undo);
    db.exec('DROP TABLE listings; DROP TABLE sales_stats');
    return true;
  });
  try {
    return convert.immediate();
  } catch (error) {
    for (const step of undo.reverse()) step();
    throw error;
  }
}
