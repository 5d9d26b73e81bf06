/**
 * Every SQL statement the PostgreSQL price store runs. Each has a name, so pg prepares it
 * once per pooled connection and reuses the plan. Bulk writes take one array per column
 * and unnest() them into rows (the column orders of rows.ts).
 */
import { LISTING_CONFIRM_MS } from '../live-writes.ts';
import type { QueryConfig } from './driver.ts';

type Statement = (values: unknown[]) => QueryConfig;

function statement(name: string, text: string, rowMode?: 'array'): Statement {
  return (values) => ({ name, text, values, ...(rowMode ? { rowMode } : {}) });
}

// An older snapshot never replaces a newer one, even when batches commit out of order, a newer
// one only when its content changed, and the same snapshot written again changes nothing
// (rowCount counts what changed; see ../live-writes.ts). The condition runs twice: first
// against the stored row in a join, so an unchanged side never reaches ON CONFLICT (which
// row-locks every conflicting row, writing WAL and dirtying its page, even when its WHERE
// then refuses the update), and again in ON CONFLICT against the latest committed row. A row
// without a fetch time goes on to fail the INSERT's NOT NULL, as before.
const sideChanged = (stored: string, incoming: string) => `
   (${incoming}.fetched_at > ${stored}.fetched_at
       AND (${incoming}.levels, ${incoming}.listing_count, ${incoming}.total_quantity,
         ${incoming}.source_time_kind, ${incoming}.original_currency)
       IS DISTINCT FROM (${stored}.levels, ${stored}.listing_count, ${stored}.total_quantity,
         ${stored}.source_time_kind, ${stored}.original_currency))
     OR (${incoming}.fetched_at = ${stored}.fetched_at
       AND (${incoming}.levels, ${incoming}.listing_count, ${incoming}.total_quantity,
         ${incoming}.source_updated_at, ${incoming}.source_time_kind, ${incoming}.original_currency)
       IS DISTINCT FROM (${stored}.levels, ${stored}.listing_count, ${stored}.total_quantity,
         ${stored}.source_updated_at, ${stored}.source_time_kind, ${stored}.original_currency))`;

export const upsertSides = statement(
  'upsert_sides',
  `INSERT INTO side_snapshots (game, market, item_id, side, levels, listing_count,
     total_quantity, fetched_at, ingested_at, source_updated_at, source_time_kind,
     original_currency)
   SELECT u.* FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::bytea[],
     $6::integer[], $7::bigint[], $8::bigint[], $9::bigint[], $10::bigint[], $11::text[],
     $12::text[]) AS u(game, market, item_id, side, levels, listing_count, total_quantity,
       fetched_at, ingested_at, source_updated_at, source_time_kind, original_currency)
   LEFT JOIN side_snapshots s ON s.game = u.game AND s.market = u.market
     AND s.item_id = u.item_id AND s.side = u.side
   WHERE s.game IS NULL OR u.fetched_at IS NULL OR ${sideChanged('s', 'u')}
   ON CONFLICT (game, market, item_id, side) DO UPDATE SET
     levels = excluded.levels, listing_count = excluded.listing_count,
     total_quantity = excluded.total_quantity, fetched_at = excluded.fetched_at,
     ingested_at = excluded.ingested_at, source_updated_at = excluded.source_updated_at,
     source_time_kind = excluded.source_time_kind,
     original_currency = excluded.original_currency
   WHERE ${sideChanged('side_snapshots', 'excluded')}`,
);

// A sale seen again keeps its first row (and ingestedAt). Returns the rows it stored (in
// select_sales' column order), which are the sales new to the rollups.
export const insertSales = statement(
  'insert_sales',
  `INSERT INTO sales (game, item_id, sold_at, market, price, quantity, ingested_at,
     original_currency)
   SELECT * FROM unnest($1::text[], $2::text[], $3::bigint[], $4::text[], $5::bigint[],
     $6::integer[], $7::bigint[], $8::text[])
   ON CONFLICT DO NOTHING
   RETURNING game, item_id, market, price, quantity, sold_at, ingested_at, original_currency`,
  'array',
);

// A newer listing replaces the stored one when it changed or is due for re-confirmation; as
// for sides, the join drops the others before ON CONFLICT would lock them.
const listingDue = (stored: string, incoming: string) => `
   ${incoming}.fetched_at >= ${stored}.fetched_at + ${LISTING_CONFIRM_MS}
     OR (${incoming}.fetched_at >= ${stored}.fetched_at
       AND (${incoming}.item_id, ${incoming}.price, ${incoming}.float_value, ${incoming}.paint_seed,
         ${incoming}.paint_index, ${incoming}.phase, ${incoming}.inspect_link, ${incoming}.stickers,
         ${incoming}.is_stattrak, ${incoming}.original_currency)
       IS DISTINCT FROM (${stored}.item_id, ${stored}.price, ${stored}.float_value,
         ${stored}.paint_seed, ${stored}.paint_index, ${stored}.phase, ${stored}.inspect_link,
         ${stored}.stickers, ${stored}.is_stattrak, ${stored}.original_currency))`;

export const upsertListings = statement(
  'upsert_listings',
  `INSERT INTO listings (game, market, listing_id, item_id, price, float_value, paint_seed,
     paint_index, phase, inspect_link, stickers, is_stattrak, fetched_at, ingested_at,
     original_currency)
   SELECT u.game, u.market, u.listing_id, u.item_id, u.price, u.float_value, u.paint_seed,
     u.paint_index, u.phase, u.inspect_link, u.stickers, u.is_stattrak, u.fetched_at,
     u.ingested_at, u.original_currency
   FROM (SELECT game, market, listing_id, item_id, price, float_value, paint_seed, paint_index,
       phase, inspect_link, stickers::jsonb AS stickers, is_stattrak, fetched_at, ingested_at,
       original_currency
     FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::bigint[],
       $6::double precision[], $7::integer[], $8::integer[], $9::text[], $10::text[],
       $11::text[], $12::boolean[], $13::bigint[], $14::bigint[], $15::text[])
       AS a(game, market, listing_id, item_id, price, float_value, paint_seed, paint_index,
         phase, inspect_link, stickers, is_stattrak, fetched_at, ingested_at,
         original_currency)) AS u
   LEFT JOIN listings l ON l.game = u.game AND l.market = u.market
     AND l.listing_id = u.listing_id
   WHERE l.game IS NULL OR u.fetched_at IS NULL OR ${listingDue('l', 'u')}
   ON CONFLICT (game, market, listing_id) DO UPDATE SET
     item_id = excluded.item_id, price = excluded.price, float_value = excluded.float_value,
     paint_seed = excluded.paint_seed, paint_index = excluded.paint_index,
     phase = excluded.phase, inspect_link = excluded.inspect_link,
     stickers = excluded.stickers, is_stattrak = excluded.is_stattrak,
     fetched_at = excluded.fetched_at, ingested_at = excluded.ingested_at,
     original_currency = excluded.original_currency
   WHERE ${listingDue('listings', 'excluded')}`,
);

// WITH ORDINALITY + ORDER BY: ids follow the order of the records passed in.
export const insertFetches = statement(
  'insert_fetches',
  `INSERT INTO fetch_records (market, game, started_at, fetched_at, ingested_at, ok,
     error_kind, observation_count, rejected_count, failure, detail, unmapped_count)
   SELECT market, game, started_at, fetched_at, ingested_at, ok, error_kind,
     observation_count, rejected_count, failure, detail, unmapped_count
   FROM unnest($1::text[], $2::text[], $3::bigint[], $4::bigint[], $5::bigint[],
     $6::boolean[], $7::text[], $8::integer[], $9::integer[], $10::text[], $11::text[],
     $12::integer[])
     WITH ORDINALITY AS u(market, game, started_at, fetched_at, ingested_at, ok, error_kind,
       observation_count, rejected_count, failure, detail, unmapped_count, position)
   ORDER BY position`,
);

export const markFirstWrite = statement(
  'mark_first_write',
  `INSERT INTO store_marks (name, at) VALUES ('first_write', $1) ON CONFLICT DO NOTHING`,
);

export const selectSides = statement(
  'select_sides',
  `SELECT game, item_id, market, side, levels, listing_count, total_quantity, fetched_at,
     ingested_at, source_updated_at, source_time_kind, original_currency
   FROM side_snapshots WHERE game = $1`,
  'array',
);

export const selectSales = statement(
  'select_sales',
  `SELECT game, item_id, market, price, quantity, sold_at, ingested_at, original_currency
   FROM sales WHERE game = $1 AND sold_at >= $2 ORDER BY sold_at`,
  'array',
);

export const selectListings = statement(
  'select_listings',
  `SELECT game, item_id, market, listing_id, price, float_value, paint_seed, paint_index,
     phase, inspect_link, stickers, is_stattrak, fetched_at, ingested_at, original_currency
   FROM listings WHERE game = $1`,
  'array',
);

export const selectFetches = statement(
  'select_fetches',
  `SELECT market, game, started_at, fetched_at, ingested_at, ok, error_kind,
     observation_count, rejected_count, failure, detail, unmapped_count
   FROM fetch_records WHERE started_at >= $1 ORDER BY started_at, id`,
  'array',
);

export const deleteListingsBefore = statement(
  'delete_listings_before',
  'DELETE FROM listings WHERE game = $1 AND market = $2 AND fetched_at < $3',
);

export const deleteSalesBefore = statement(
  'delete_sales_before',
  'DELETE FROM sales WHERE sold_at < $1',
);

export const deleteFetchesBefore = statement(
  'delete_fetches_before',
  'DELETE FROM fetch_records WHERE started_at < $1',
);

export const anythingWritten = statement(
  'anything_written',
  `SELECT EXISTS (SELECT 1 FROM store_marks WHERE name = 'first_write')
     OR EXISTS (SELECT 1 FROM side_snapshots)
     OR EXISTS (SELECT 1 FROM sales)
     OR EXISTS (SELECT 1 FROM listings) AS written`,
);

// Claims the scope for the token inside the batch's transaction (the row lock orders concurrent
// writers); no row back means a newer holder has written: the batch is refused.
export const claimFence = statement(
  'claim_fence',
  `INSERT INTO write_fences AS held (scope, token) VALUES ($1, $2)
   ON CONFLICT (scope) DO UPDATE SET token = excluded.token
   WHERE held.token <= excluded.token
   RETURNING token`,
);

export const saveProgress = statement(
  'save_progress',
  `INSERT INTO job_progress (job, state) VALUES ($1, $2)
   ON CONFLICT (job) DO UPDATE SET state = excluded.state`,
);

export const forgetProgress = statement(
  'forget_progress',
  'DELETE FROM job_progress WHERE job = $1',
);

export const selectProgress = statement(
  'select_progress',
  'SELECT state FROM job_progress WHERE job = $1',
);
