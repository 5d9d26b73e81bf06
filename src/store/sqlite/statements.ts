/**
 * Every SQL statement the SQLite store runs, prepared once after migrations and reused.
 */
import type Database from 'better-sqlite3';
import type { FetchRow, SaleRow } from './rows.ts';

type Param = number | string | Buffer | null;

// The bulk loaders read raw arrays in exactly these column orders (see rows.ts). Latest sides
// are read by side-read.ts, listings and sales statistics by live-log.ts.
const SALE_COLUMNS = `game, item_id, market, price, quantity, sold_at, ingested_at,
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
    selectFetches: db.prepare<[number], FetchRow>(
      `SELECT ${FETCH_COLUMNS} FROM fetch_records WHERE started_at >= ? ORDER BY started_at, id`,
    ),
    deleteSalesBefore: db.prepare<[string, number]>(
      'DELETE FROM sales WHERE game = ? AND sold_at < ?',
    ),
    deleteFetchesBefore: db.prepare<[number]>('DELETE FROM fetch_records WHERE started_at < ?'),
    anythingWritten: db.prepare<[], { written: number }>(`
      SELECT EXISTS (SELECT 1 FROM store_marks WHERE name = 'first_write')
        OR EXISTS (SELECT 1 FROM sales) AS written`),
  };
}

export type Statements = ReturnType<typeof prepareStatements>;
