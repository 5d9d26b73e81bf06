/**
 * The SQLite schema, as ordered migrations. Append new versions; never edit an applied one.
 *
 * Choices, measured on the dev machine (100k rows, after VACUUM):
 * - Levels are a BLOB in the shared level codec (varints, price deltas): a 10-level side takes
 *   131 bytes on disk instead of 233 as JSON text; a 50-level side 338 instead of 912.
 * - Keyed tables are WITHOUT ROWID: the primary key is the table, saving a second copy of the
 *   key in a separate unique index (about 60 bytes per side row).
 * - STRICT tables: an INTEGER column refuses a REAL such as 12.5, so a float price can never
 *   be stored.
 * - Side keys are market-major, (game, market, item_id, side): a market's refresh rewrites a
 *   contiguous key range. With 800k stored sides, refreshing one market's 80k ran at 138k
 *   sides/s writing 442 WAL pages per 10k batch; item-major keys: 41k sides/s, 2739 pages.
 * - Times are INTEGER ms since the epoch.
 * Version 2 adds the history rollups (see rollupSchema below), version 3 their journal, version
 * 4 gives journal ids AUTOINCREMENT. The rollup tables themselves now live in their own file
 * (history-file.ts moves them there), so version 2 leaves empty tables that it drops.
 * Version 9 replaces side_snapshots with a change log and compact snapshots (side-tables.ts);
 * the rows of an existing table are converted at open (side-convert.ts). Version 13 holds the
 * open attribute buckets in a change log (attribute-log.ts); rows stored before stay as they
 * are and merge with what the log adds to them.
 */
import type { MigrationStep } from '../migration-plan.ts';
import { SQLITE_SCHEMA_TABLES } from '../schema-tables.ts';
import {
  SQLITE_BUCKET_HISTORY_SCHEMA,
  SQLITE_BUCKET_HISTORY_TIME_FIRST,
} from './bucket-history.ts';
import { SQLITE_ATTRIBUTE_LOG_SCHEMA } from './attribute-log.ts';
import { SALES_SNAPSHOT_SCHEMA } from './sales-snapshot.ts';
import { SIDE_TABLES_SCHEMA } from './side-tables.ts';
import { LIVE_LOG_SCHEMA } from './live-log-tables.ts';

export interface SqliteMigration extends MigrationStep {
  sql: string;
}

const initialSchema = `
CREATE TABLE side_snapshots (
  game TEXT NOT NULL,
  item_id TEXT NOT NULL,
  market TEXT NOT NULL,
  side TEXT NOT NULL CHECK (side IN ('ask', 'bid')),
  levels BLOB NOT NULL,
  listing_count INTEGER,
  total_quantity INTEGER NOT NULL,
  fetched_at INTEGER NOT NULL,
  ingested_at INTEGER NOT NULL,
  source_updated_at INTEGER,
  source_time_kind TEXT,
  original_currency TEXT NOT NULL,
  PRIMARY KEY (game, market, item_id, side)
) STRICT, WITHOUT ROWID;

-- The key is also the dedupe key: a sale fetched twice is stored once. Its prefix
-- (game, item_id, sold_at) serves per-item history reads. sales_by_time covers every column
-- (an index on a WITHOUT ROWID table carries the key), so a time-range load never visits
-- the table: half the load time for about 8% more bytes.
CREATE TABLE sales (
  game TEXT NOT NULL,
  item_id TEXT NOT NULL,
  sold_at INTEGER NOT NULL,
  market TEXT NOT NULL,
  price INTEGER NOT NULL,
  quantity INTEGER NOT NULL,
  ingested_at INTEGER NOT NULL,
  original_currency TEXT NOT NULL,
  PRIMARY KEY (game, item_id, sold_at, market, price, quantity)
) STRICT, WITHOUT ROWID;
CREATE INDEX sales_by_time ON sales (game, sold_at, ingested_at, original_currency);

CREATE TABLE listings (
  game TEXT NOT NULL,
  market TEXT NOT NULL,
  listing_id TEXT NOT NULL,
  item_id TEXT NOT NULL,
  price INTEGER NOT NULL,
  float_value REAL,
  paint_seed INTEGER,
  paint_index INTEGER,
  phase TEXT,
  inspect_link TEXT,
  stickers TEXT NOT NULL,
  is_stattrak INTEGER NOT NULL CHECK (is_stattrak IN (0, 1)),
  fetched_at INTEGER NOT NULL,
  ingested_at INTEGER NOT NULL,
  original_currency TEXT NOT NULL,
  PRIMARY KEY (game, market, listing_id)
) STRICT, WITHOUT ROWID;
CREATE INDEX listings_by_age ON listings (game, market, fetched_at);

CREATE TABLE fetch_records (
  id INTEGER PRIMARY KEY,
  market TEXT NOT NULL,
  game TEXT NOT NULL,
  started_at INTEGER NOT NULL,
  fetched_at INTEGER NOT NULL,
  ingested_at INTEGER,
  ok INTEGER NOT NULL CHECK (ok IN (0, 1)),
  error_kind TEXT CHECK (error_kind IN ('retryable', 'permanent')),
  observation_count INTEGER NOT NULL,
  rejected_count INTEGER NOT NULL
) STRICT;
CREATE INDEX fetch_records_by_start ON fetch_records (started_at);

-- One row per event that happens once in a store's life, e.g. 'first_write'.
CREATE TABLE store_marks (
  name TEXT PRIMARY KEY,
  at INTEGER NOT NULL
) STRICT, WITHOUT ROWID;
`;

// History rollups, one table per tier. A series is an item on one market, or (market '') the
// item's cross-market aggregate; its integer id keeps the rollup keys short. One row per
// (series, bucket) holds all three listing types (ask, bid and sales sections in the shared
// rollup codec, NULL when the bucket observed none of that kind): an ask+bid fetch writes one
// row, and a SELL_OFFER read gets the bucket's best bid from the same row. bucket is
// floor(start / tier width). sale_units (units sold) feeds rolling volumes without decoding.
const rollupTable = (tier: string) => `
CREATE TABLE rollups_${tier} (
  series INTEGER NOT NULL,
  bucket INTEGER NOT NULL,
  ask BLOB,
  bid BLOB,
  sales BLOB,
  sale_units INTEGER,
  PRIMARY KEY (series, bucket)
) STRICT, WITHOUT ROWID;`;

const rollupSchema = `
CREATE TABLE history_series (
  id INTEGER PRIMARY KEY,
  game TEXT NOT NULL,
  item_id TEXT NOT NULL,
  market TEXT NOT NULL,
  UNIQUE (game, item_id, market)
) STRICT;
${rollupTable('10m')}
${rollupTable('1h')}
${rollupTable('1d')}
`;

// Observations journaled by a batch but not yet folded into the rollup tables (one blob of
// packed entries per batch, see rollup-journal.ts); a fold merges them and empties the table.
// Since issue 31 the journal is files (journal-segments.ts), and what is left here moves there.
const journalSchema = `
CREATE TABLE rollup_journal (
  id INTEGER PRIMARY KEY,
  entries BLOB NOT NULL
) STRICT;
`;

// Journal ids must never be reused: the history file remembers the last id it folded, so an
// id issued again after the table was emptied would be taken as folded already.
const monotonicJournal = `
CREATE TABLE rollup_journal_ids (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  entries BLOB NOT NULL
) STRICT;
INSERT INTO rollup_journal_ids (id, entries) SELECT id, entries FROM rollup_journal;
DROP TABLE rollup_journal;
ALTER TABLE rollup_journal_ids RENAME TO rollup_journal;
`;

// Live connectors: why a fetch failed (a FetchFailure kind), one line of detail, and how many
// observed names were not in the catalog (rows written before stay valid: null / 0); the
// markets' own sales statistics per trailing window (latest only); the last good exchange
// rates of the rate source, so a restart without network still converts.
const liveData = `
ALTER TABLE fetch_records ADD COLUMN failure TEXT;
ALTER TABLE fetch_records ADD COLUMN detail TEXT;
ALTER TABLE fetch_records ADD COLUMN unmapped_count INTEGER NOT NULL DEFAULT 0;

CREATE TABLE sales_stats (
  game TEXT NOT NULL,
  market TEXT NOT NULL,
  item_id TEXT NOT NULL,
  sales_window TEXT NOT NULL,
  volume INTEGER NOT NULL,
  min_price INTEGER,
  max_price INTEGER,
  avg_price INTEGER,
  median_price INTEGER,
  fetched_at INTEGER NOT NULL,
  ingested_at INTEGER NOT NULL,
  original_currency TEXT NOT NULL,
  PRIMARY KEY (game, market, item_id, sales_window)
) STRICT, WITHOUT ROWID;

CREATE TABLE fx_rates (
  currency TEXT PRIMARY KEY,
  usd_micro INTEGER NOT NULL CHECK (usd_micro > 0),
  as_of INTEGER NOT NULL,
  source TEXT NOT NULL
) STRICT, WITHOUT ROWID;
`;

// Where a resumable job (the simulator backfill) has got to: JobProgress in ../price-store.ts.
const jobProgress = `
CREATE TABLE job_progress (
  job TEXT PRIMARY KEY,
  state TEXT NOT NULL
) STRICT, WITHOUT ROWID;
`;

// Raw sales keyed time first: the rows of a batch (sold in the last minutes) are appended at
// the end of the game's range instead of one page per item over the whole table, and the key
// is the time order the loads read, so the covering index goes (it held every column again).
// The key's columns are those of the earlier key, so a sale is still stored once.
const salesTimeFirst = `
CREATE TABLE sales_time_first (
  game TEXT NOT NULL,
  sold_at INTEGER NOT NULL,
  item_id TEXT NOT NULL,
  market TEXT NOT NULL,
  price INTEGER NOT NULL,
  quantity INTEGER NOT NULL,
  ingested_at INTEGER NOT NULL,
  original_currency TEXT NOT NULL,
  PRIMARY KEY (game, sold_at, item_id, market, price, quantity)
) STRICT, WITHOUT ROWID;
INSERT INTO sales_time_first (game, sold_at, item_id, market, price, quantity, ingested_at,
  original_currency)
SELECT game, sold_at, item_id, market, price, quantity, ingested_at, original_currency
FROM sales ORDER BY game, sold_at, item_id, market, price, quantity;
DROP TABLE sales;
ALTER TABLE sales_time_first RENAME TO sales;
`;

export const SQLITE_MIGRATIONS: readonly SqliteMigration[] = [
  { version: 1, name: 'latest sides, sales, listings, fetch records', sql: initialSchema },
  { version: 2, name: 'history rollups (10m, 1h, 1d)', sql: rollupSchema },
  { version: 3, name: 'rollup journal (observations not yet folded)', sql: journalSchema },
  { version: 4, name: 'rollup journal ids never reused', sql: monotonicJournal },
  { version: 5, name: 'fetch failures, sales statistics, exchange rates', sql: liveData },
  {
    version: 6,
    name: 'item schema versions, cursor secret, game read switch',
    sql: SQLITE_SCHEMA_TABLES,
  },
  { version: 7, name: 'attribute bucket history', sql: SQLITE_BUCKET_HISTORY_SCHEMA },
  { version: 8, name: 'progress of resumable jobs', sql: jobProgress },
  {
    version: 9,
    name: 'latest sides as a change log and compact snapshots',
    sql: SIDE_TABLES_SCHEMA,
  },
  {
    version: 10,
    name: 'attribute bucket history keyed time first',
    sql: SQLITE_BUCKET_HISTORY_TIME_FIRST,
  },
  { version: 11, name: 'listings and sales statistics as a change log', sql: LIVE_LOG_SCHEMA },
  { version: 12, name: 'recent sales copied at clean close', sql: SALES_SNAPSHOT_SCHEMA },
  {
    version: 13,
    name: 'open attribute buckets as a change log, rows written when they close',
    sql: SQLITE_ATTRIBUTE_LOG_SCHEMA,
  },
  { version: 14, name: 'raw sales keyed time first', sql: salesTimeFirst },
];
