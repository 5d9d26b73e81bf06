/**
 * The PostgreSQL price schema, as ordered migrations. Append new versions; never edit an
 * applied one. Version 2 adds the history rollups (the HistoryStore port), their 10-minute
 * and hourly tables partitioned by month like `sales` (see partitions.ts).
 *
 * Choices:
 * - Times are BIGINT milliseconds since the epoch, not timestamptz: timestamptz keeps
 *   microseconds, so a ms epoch would round-trip only through float seconds and time-zone
 *   rules. A BIGINT returns the exact number the domain wrote, and compares as cheaply.
 * - Money is integer cents in BIGINT. Parameters travel as text and PostgreSQL refuses '11.5'
 *   for an integer column instead of rounding it, so a fractional price cannot be stored; the
 *   `cents` domain also CHECKs 0 <= price <= 2^53-1 so every stored value reads back exactly
 *   as a JS number (the pool parses BIGINT to number, refusing anything larger).
 * - Levels are BYTEA in the shared level codec (level-codec.ts), as in SQLite.
 * - side_snapshots and listings hold latest state and are rewritten in place: fillfactor 80
 *   leaves room on each page so an upsert is a HOT update (no index entry for the new row).
 * - sales and fetch_records are history: PARTITION BY RANGE on their time column, one
 *   partition per UTC month created on demand before a write touches it, plus a DEFAULT
 *   partition as a safety net. Retention drops whole months instead of deleting rows.
 */
import type { Tier } from '../../pricing/rollup-buckets.ts';
import type { PostgresMigration } from './migrate.ts';
import { POSTGRES_SCHEMA_TABLES } from '../schema-tables.ts';
import { POSTGRES_BUCKET_HISTORY_SCHEMA } from './bucket-history.ts';

/** Largest integer a JS number holds exactly. */
const MAX_SAFE = '9007199254740991';

const initialSchema = `
CREATE DOMAIN epoch_ms AS BIGINT CHECK (VALUE BETWEEN -${MAX_SAFE} AND ${MAX_SAFE});
CREATE DOMAIN cents AS BIGINT CHECK (VALUE BETWEEN 0 AND ${MAX_SAFE});
CREATE DOMAIN safe_count AS BIGINT CHECK (VALUE BETWEEN 0 AND ${MAX_SAFE});

CREATE TABLE side_snapshots (
  game TEXT NOT NULL,
  market TEXT NOT NULL,
  item_id TEXT NOT NULL,
  side TEXT NOT NULL CHECK (side IN ('ask', 'bid')),
  levels BYTEA NOT NULL,
  listing_count INTEGER,
  total_quantity safe_count NOT NULL,
  fetched_at epoch_ms NOT NULL,
  ingested_at epoch_ms NOT NULL,
  source_updated_at epoch_ms,
  source_time_kind TEXT,
  original_currency TEXT NOT NULL,
  PRIMARY KEY (game, market, item_id, side)
) WITH (fillfactor = 80);

-- The key is also the dedupe key: a sale fetched twice is stored once.
CREATE TABLE sales (
  game TEXT NOT NULL,
  item_id TEXT NOT NULL,
  sold_at epoch_ms NOT NULL,
  market TEXT NOT NULL,
  price cents NOT NULL,
  quantity INTEGER NOT NULL,
  ingested_at epoch_ms NOT NULL,
  original_currency TEXT NOT NULL,
  PRIMARY KEY (game, item_id, sold_at, market, price, quantity)
) PARTITION BY RANGE (sold_at);
CREATE INDEX sales_by_time ON sales (game, sold_at);
CREATE TABLE sales_default PARTITION OF sales DEFAULT;

CREATE TABLE listings (
  game TEXT NOT NULL,
  market TEXT NOT NULL,
  listing_id TEXT NOT NULL,
  item_id TEXT NOT NULL,
  price cents NOT NULL,
  float_value DOUBLE PRECISION,
  paint_seed INTEGER,
  paint_index INTEGER,
  phase TEXT,
  inspect_link TEXT,
  stickers JSONB NOT NULL,
  is_stattrak BOOLEAN NOT NULL,
  fetched_at epoch_ms NOT NULL,
  ingested_at epoch_ms NOT NULL,
  original_currency TEXT NOT NULL,
  PRIMARY KEY (game, market, listing_id)
) WITH (fillfactor = 80);
CREATE INDEX listings_by_age ON listings (game, market, fetched_at);

-- id keeps records of one startedAt in insertion order.
CREATE TABLE fetch_records (
  id BIGSERIAL,
  market TEXT NOT NULL,
  game TEXT NOT NULL,
  started_at epoch_ms NOT NULL,
  fetched_at epoch_ms NOT NULL,
  ingested_at epoch_ms,
  ok BOOLEAN NOT NULL,
  error_kind TEXT CHECK (error_kind IN ('retryable', 'permanent')),
  observation_count INTEGER NOT NULL,
  rejected_count INTEGER NOT NULL,
  PRIMARY KEY (started_at, id)
) PARTITION BY RANGE (started_at);
CREATE TABLE fetch_records_default PARTITION OF fetch_records DEFAULT;

-- One row per event that happens once in a store's life, e.g. 'first_write'.
CREATE TABLE store_marks (
  name TEXT PRIMARY KEY,
  at epoch_ms NOT NULL
);
`;

// History rollups, one table per tier, in the shared rollup codec (rollup-codec.ts): one row
// per (series, bucket start) holding the ask, bid and sales sections (NULL when the bucket saw
// none of that kind). A series is an item on one market, or (market '') the item's aggregate.
// sale_units (units sold) feeds rolling volumes without decoding. 10m and 1h rows are
// partitioned by month of `start`, so a retention delete only visits expired months; the
// daily tier is kept forever by default and stays one table.
const rollupColumns = `
  series BIGINT NOT NULL,
  start epoch_ms NOT NULL,
  ask BYTEA,
  bid BYTEA,
  sales BYTEA,
  sale_units safe_count,
  PRIMARY KEY (series, start)`;

const partitionedRollups = (tier: string) => `
CREATE TABLE rollups_${tier} (${rollupColumns}
) PARTITION BY RANGE (start);
CREATE TABLE rollups_${tier}_default PARTITION OF rollups_${tier} DEFAULT;`;

const rollupSchema = `
CREATE TABLE history_series (
  id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
  game TEXT NOT NULL,
  item_id TEXT NOT NULL,
  market TEXT NOT NULL,
  UNIQUE (game, item_id, market)
);
${partitionedRollups('10m')}
${partitionedRollups('1h')}
CREATE TABLE rollups_1d (${rollupColumns}
) WITH (fillfactor = 80);
`;

// Live connectors: why a fetch failed, one line of detail, unmapped names per fetch; the
// markets' own sales statistics per trailing window (latest only); the last good exchange
// rates of the rate source.
const liveData = `
ALTER TABLE fetch_records ADD COLUMN failure TEXT;
ALTER TABLE fetch_records ADD COLUMN detail TEXT;
ALTER TABLE fetch_records ADD COLUMN unmapped_count INTEGER NOT NULL DEFAULT 0;

CREATE TABLE sales_stats (
  game TEXT NOT NULL,
  market TEXT NOT NULL,
  item_id TEXT NOT NULL,
  sales_window TEXT NOT NULL,
  volume INTEGER NOT NULL CHECK (volume >= 0),
  min_price BIGINT,
  max_price BIGINT,
  avg_price BIGINT,
  median_price BIGINT,
  fetched_at epoch_ms NOT NULL,
  ingested_at epoch_ms NOT NULL,
  original_currency TEXT NOT NULL,
  PRIMARY KEY (game, market, item_id, sales_window)
);

CREATE TABLE fx_rates (
  currency TEXT PRIMARY KEY,
  usd_micro BIGINT NOT NULL CHECK (usd_micro > 0),
  as_of epoch_ms NOT NULL,
  source TEXT NOT NULL
);
`;

// The highest lease fencing token committed per scope (market): see WriteFence in price-store.ts.
const writeFences = `
CREATE TABLE write_fences (
  scope TEXT PRIMARY KEY,
  token BIGINT NOT NULL
);
`;

// Where a resumable job (the simulator backfill) has got to: JobProgress in ../price-store.ts.
const jobProgress = `
CREATE TABLE job_progress (
  job TEXT PRIMARY KEY,
  state TEXT NOT NULL
);
`;

/**
 * Rollup rows are rewritten while their bucket is open (every observation of the bucket), and
 * the open buckets' rows are the newest ones, packed together on the last pages. Space left on
 * each page lets those rewrites be HOT updates: the new version stays on its page and the
 * primary key gets no new entry. Closed buckets are never rewritten, so the space is kept
 * small.
 */
export const ROLLUP_FILLFACTOR = 80;

/**
 * The hourly and daily rows are rewritten by every fold while their bucket is open (an hour's
 * row 5 times after the fold that inserts it, a day's 143 times), each fold rewriting most rows
 * of the open bucket at once. Pages half empty hold a new version of every row on them, so each
 * rewrite is a HOT update: the primary key's leaf pages, one per series, are not touched (at
 * 80, three rewrites in four went to another page and added a key entry), and the next fold's
 * read prunes the old versions. Closed hours and days keep the half-empty pages.
 */
export const OPEN_ROLLUP_FILLFACTOR = 50;

/** Fill factor of a rollup tier's table (10m: written once when its bucket closes). */
export const tierFillfactor = (tier: Tier): number =>
  tier === '10m' ? ROLLUP_FILLFACTOR : OPEN_ROLLUP_FILLFACTOR;

// Existing 10m and 1h months (and their DEFAULT partitions) take the rollups' fill factor for
// the pages they fill from now on; new months are created with it (partitions.ts).
const rollupFillfactor = `
DO $$
DECLARE part regclass;
BEGIN
  FOR part IN SELECT i.inhrelid::regclass FROM pg_inherits i
    WHERE i.inhparent IN ('rollups_10m'::regclass, 'rollups_1h'::regclass)
  LOOP
    EXECUTE format('ALTER TABLE %s SET (fillfactor = ${ROLLUP_FILLFACTOR})', part);
  END LOOP;
END $$;
`;

// The rollup journal: each batch appends its rollup entries here (rollup-journal.ts) and the
// fold merges them into the rollup rows once their bucket closed, so a row is written once per
// fold instead of once per observation. One row per batch (a long one split), no index but
// the key: the table holds the last minutes' batches.
const rollupJournal = `
CREATE TABLE rollup_journal (
  id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  base_at BIGINT NOT NULL,
  closes_at BIGINT NOT NULL,
  entries INTEGER NOT NULL,
  body BYTEA NOT NULL
);
`;

// The hourly months (and their DEFAULT partition) and the daily table take the fill factor of
// rows rewritten while open for the pages they fill from now on; new hourly months are created
// with it (partitions.ts).
const openRollupFillfactor = `
ALTER TABLE rollups_1d SET (fillfactor = ${OPEN_ROLLUP_FILLFACTOR});
DO $$
DECLARE part regclass;
BEGIN
  FOR part IN SELECT i.inhrelid::regclass FROM pg_inherits i
    WHERE i.inhparent = 'rollups_1h'::regclass
  LOOP
    EXECUTE format('ALTER TABLE %s SET (fillfactor = ${OPEN_ROLLUP_FILLFACTOR})', part);
  END LOOP;
END $$;
`;

export const PRICE_MIGRATIONS: readonly PostgresMigration[] = [
  {
    version: 1,
    name: 'latest sides, partitioned sales, listings, fetch records',
    sql: initialSchema,
  },
  { version: 2, name: 'history rollups (10m, 1h, 1d)', sql: rollupSchema },
  { version: 3, name: 'fetch failures, sales statistics, exchange rates', sql: liveData },
  {
    version: 4,
    name: 'item schema versions, cursor secret, game read switch',
    sql: POSTGRES_SCHEMA_TABLES,
  },
  { version: 5, name: 'attribute bucket history', sql: POSTGRES_BUCKET_HISTORY_SCHEMA },
  { version: 6, name: 'write fences of the market leases', sql: writeFences },
  { version: 7, name: 'progress of resumable jobs', sql: jobProgress },
  { version: 8, name: 'fill factor of the rollup months', sql: rollupFillfactor },
  { version: 9, name: 'rollup journal', sql: rollupJournal },
  { version: 10, name: 'fill factor of the hourly and daily rollups', sql: openRollupFillfactor },
];

/** The ledger table of the price store's migrations. */
export const PRICE_LEDGER = 'schema_migrations';
