/**
 * The SQL of the PostgreSQL history rollups (migrations 2 and 9): the series directory, the
 * rollup journal and its fold's lock, the set-based reads and upserts of the fold, and the range reads and
 * retention deletes of the HistoryStore. Every statement is named, so each pooled connection
 * prepares it once. Table names come from the fixed tier list, never from input.
 */
import { TIERS, type Tier } from '../../pricing/rollup-buckets.ts';
import { ALL_SECTIONS, type RollupSection } from '../history-store.ts';
import type { QueryConfig } from './driver.ts';

type Statement = (values: unknown[]) => QueryConfig;

function statement(name: string, text: string): Statement {
  return (values) => ({ name, text, values, rowMode: 'array' });
}

export const rollupTable = (tier: Tier): string => `rollups_${tier}`;

/** Tiers stored in monthly partitions (the daily tier is one table). */
export const PARTITIONED_TIERS: readonly Tier[] = ['10m', '1h'];

export type SeriesRow = [id: number, game: string, itemId: string, market: string];

/**
 * Creates the missing series of ($1 games, $2 items, $3 markets) and returns the ids of those
 * visible to this statement: a series another transaction committed while this one waited is
 * not among them, and the caller asks again.
 */
export const ensureSeries = statement(
  'history_ensure_series',
  `WITH wanted AS (
     SELECT DISTINCT * FROM unnest($1::text[], $2::text[], $3::text[]) AS u(game, item_id, market)
   ), created AS (
     INSERT INTO history_series (game, item_id, market)
     SELECT * FROM wanted ORDER BY game, item_id, market
     ON CONFLICT DO NOTHING
     RETURNING id, game, item_id, market
   )
   SELECT id, game, item_id, market FROM created
   UNION ALL
   SELECT s.id, s.game, s.item_id, s.market
   FROM history_series s JOIN wanted USING (game, item_id, market)`,
);

/** Appends journal rows: ($1 base_at, $2 closes_at, $3 entries, $4 body). */
export const insertJournal = statement(
  'history_journal_insert',
  `INSERT INTO rollup_journal (base_at, closes_at, entries, body)
   SELECT * FROM unnest($1::bigint[], $2::bigint[], $3::int[], $4::bytea[])`,
);

/**
 * One fold at a time per schema: transaction-scoped, so it goes with the fold's commit or
 * rollback. The `try` form answers false instead of waiting.
 */
export const lockFold = statement(
  'history_lock_fold',
  `SELECT pg_advisory_xact_lock(hashtext(current_schema() || ':rollup-fold'))`,
);
export const tryLockFold = statement(
  'history_try_lock_fold',
  `SELECT pg_try_advisory_xact_lock(hashtext(current_schema() || ':rollup-fold'))`,
);

/**
 * The oldest journal rows a fold may take ($1: rows whose buckets all closed by then; $2: rows
 * with an entry before then), in journal order, with their running entry count; $3 rows at most.
 */
export const pendingJournal = statement(
  'history_journal_pending',
  `SELECT id, sum(entries) OVER (ORDER BY id)::bigint FROM (
     SELECT id, entries FROM rollup_journal WHERE closes_at <= $1 OR base_at < $2
     ORDER BY id LIMIT $3) AS oldest
   ORDER BY id`,
);

/** Takes the journal rows $1 out: the fold merges them in the same transaction. */
export const takeJournal = statement(
  'history_journal_take',
  `DELETE FROM rollup_journal WHERE id = ANY($1::bigint[]) RETURNING id, base_at, body`,
);

export type StoredRollupRow = [
  tier: number,
  series: number,
  start: number,
  ask: Buffer | null,
  bid: Buffer | null,
  sales: Buffer | null,
];

/** The stored rows among ($1 tier indexes, $2 series, $3 starts), every tier in one go. */
export const selectRollupRows = statement(
  'history_select_rows',
  `WITH wanted AS (
     SELECT * FROM unnest($1::int[], $2::bigint[], $3::bigint[]) AS u(tier, series, start)
   )
   ${TIERS.map(
     (tier, index) => `SELECT ${index}, r.series, r.start, r.ask, r.bid, r.sales
   FROM ${rollupTable(tier)} r JOIN wanted w ON w.tier = ${index}
     AND r.series = w.series AND r.start = w.start`,
   ).join('\n   UNION ALL\n   ')}`,
);

/**
 * One tier's changed rows: ($1 series, $2 starts, $3 ask, $4 bid, $5 sales, $6 sale units).
 * A NULL section leaves the stored one alone (a section, once there, is never removed).
 */
export const upsertRollupRows = (tier: Tier): Statement => {
  const table = rollupTable(tier);
  return statement(
    `history_upsert_${tier}`,
    `INSERT INTO ${table} AS r (series, start, ask, bid, sales, sale_units)
     SELECT * FROM unnest($1::bigint[], $2::bigint[], $3::bytea[], $4::bytea[], $5::bytea[],
       $6::bigint[])
     ON CONFLICT (series, start) DO UPDATE SET
       ask = coalesce(excluded.ask, r.ask), bid = coalesce(excluded.bid, r.bid),
       sales = coalesce(excluded.sales, r.sales),
       sale_units = coalesce(excluded.sale_units, r.sale_units)`,
  );
};

export const findSeries = statement(
  'history_find_series',
  'SELECT id FROM history_series WHERE game = $1 AND item_id = $2 AND market = $3',
);

export const seriesMarkets = statement(
  'history_series_markets',
  "SELECT market FROM history_series WHERE game = $1 AND item_id = $2 AND market <> ''",
);

export type RangeRow = [
  start: number,
  ask: Buffer | null,
  bid: Buffer | null,
  sales: Buffer | null,
];

/** Range read of one series; sections not asked for come back NULL (one plan per choice). */
export function selectRange(tier: Tier, sections: readonly RollupSection[]): Statement {
  const columns = ALL_SECTIONS.map((name) => (sections.includes(name) ? name : 'NULL'));
  const key = ALL_SECTIONS.map((name) => (sections.includes(name) ? name[0] : '_')).join('');
  return statement(
    `history_range_${tier}_${key}`,
    `SELECT start, ${columns.join(', ')} FROM ${rollupTable(tier)}
     WHERE series = $1 AND start >= $2 AND start < $3 ORDER BY start`,
  );
}

export const selectUnits = (tier: Tier): Statement =>
  statement(
    `history_units_${tier}`,
    `SELECT start, sale_units FROM ${rollupTable(tier)}
     WHERE series = $1 AND start >= $2 AND start < $3 AND sale_units IS NOT NULL
     ORDER BY start`,
  );

/**
 * One retention step: deletes up to $3 rows with start < $2, in (series, start) order from
 * series $1 on, and returns each deleted row's series. Month partitions wholly after the
 * cutoff are pruned from the plan.
 */
export const deleteExpired = (tier: Tier): Statement => {
  const table = rollupTable(tier);
  return statement(
    `history_delete_${tier}`,
    `DELETE FROM ${table} WHERE (series, start) IN (
       SELECT series, start FROM ${table} WHERE series >= $1 AND start < $2
       ORDER BY series, start LIMIT $3)
     RETURNING series`,
  );
};
