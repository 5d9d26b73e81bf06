/**
 * Every SQL statement the SQLite store runs, prepared once after migrations and reused.
 */
import type Database from 'better-sqlite3';
import { LISTING_CONFIRM_MS } from '../live-writes.ts';
import type { FetchRow, ListingRow, SaleRow } from './rows.ts';

type Param = number | string | Buffer | null;

// The bulk loaders read raw arrays in exactly these column orders (see rows.ts). Latest sides
// are read by side-read.ts.
const SALE_COLUMNS = `game, item_id, market, price, quantity, sold_at, ingested_at,
  original_currency`;

const LISTING_COLUMNS = `game, item_id, market, listing_id, price, float_value, paint_seed,
  paint_index, phase, inspect_link, stickers, is_stattrak, fetched_at, ingested_at,
  original_currency`;

const FETCH_COLUMNS = `market, game, started_at AS startedAt, fetched_at AS fetchedAt,
  ingested_at AS ingestedAt, ok, error_kind AS errorKind,
  observation_count AS observationCount, rejected_count AS rejectedCount, failure, detail,
  unmapped_count AS unmappedCount`;

export function prepareStatements(db: Database.Database) {
  return {
    // Not INSERT OR IGNORE: that would also silently skip a row breaking NOT NULL.
    insertSale: db.prepare<[Param[]]>(`
      INSERT INTO sales (game, item_id, sold_at, market, price, quantity, ingested_at,
        original_currency)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?)
      ON CONFLICT (game, item_id, sold_at, market, price, quantity) DO NOTHING`),
    // As for sides: an older fetch of a listing never replaces a newer one (as on PostgreSQL),
    // and a newer one only when the listing changed or its stored fetchedAt is due for
    // re-confirmation (LISTING_CONFIRM_MS, live-writes.ts).
    upsertListing: db.prepare<[Param[]]>(`
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
            listings.is_stattrak, listings.original_currency))`),
    insertFetch: db.prepare<[Param[]]>(`
      INSERT INTO fetch_records (market, game, started_at, fetched_at, ingested_at, ok,
        error_kind, observation_count, rejected_count, failure, detail, unmapped_count)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`),
    markFirstWrite: db.prepare<[number]>(
      `INSERT OR IGNORE INTO store_marks (name, at) VALUES ('first_write', ?)`,
    ),
    saveProgress: db.prepare<[string, string]>(
      `INSERT INTO job_progress (job, state) VALUES (?, ?)
       ON CONFLICT (job) DO UPDATE SET state = excluded.state`,
    ),
    forgetProgress: db.prepare<[string]>('DELETE FROM job_progress WHERE job = ?'),
    selectProgress: db
      .prepare<[string], [string]>('SELECT state FROM job_progress WHERE job = ?')
      .raw(),
    selectSales: db
      .prepare<[string, number], SaleRow>(
        `SELECT ${SALE_COLUMNS} FROM sales WHERE game = ? AND sold_at >= ? ORDER BY sold_at`,
      )
      .raw(),
    selectListings: db
      .prepare<[string], ListingRow>(`SELECT ${LISTING_COLUMNS} FROM listings WHERE game = ?`)
      .raw(),
    selectFetches: db.prepare<[number], FetchRow>(
      `SELECT ${FETCH_COLUMNS} FROM fetch_records WHERE started_at >= ? ORDER BY started_at, id`,
    ),
    deleteListingsBefore: db.prepare<[string, string, number]>(
      'DELETE FROM listings WHERE game = ? AND market = ? AND fetched_at < ?',
    ),
    deleteSalesBefore: db.prepare<[string, number]>(
      'DELETE FROM sales WHERE game = ? AND sold_at < ?',
    ),
    deleteFetchesBefore: db.prepare<[number]>('DELETE FROM fetch_records WHERE started_at < ?'),
    anythingWritten: db.prepare<[], { written: number }>(`
      SELECT EXISTS (SELECT 1 FROM store_marks WHERE name = 'first_write')
        OR EXISTS (SELECT 1 FROM sales)
        OR EXISTS (SELECT 1 FROM listings) AS written`),
  };
}

export type Statements = ReturnType<typeof prepareStatements>;
