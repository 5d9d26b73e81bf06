/**
 * Attribute-bucket history in PostgreSQL (the bucket half of the HistoryStore port): the same
 * rows and merge as the SQLite store (src/store/sqlite/bucket-history.ts), one unnest() upsert
 * per call, so one statement merges a whole ingest batch in one transaction.
 */
import type { BucketObservation } from '../bucket-history.ts';
import { rollupOf } from '../bucket-history.ts';
import { TIERS, TIER_MS } from '../../pricing/rollup-buckets.ts';
import {
  bucketRollupFromRow,
  bucketRollupValues,
  type BucketRollupRow,
} from '../bucket-rollup-rows.ts';
import type { HistoryStore } from '../history-store.ts';
import { inTransaction, type Pool, type QueryConfig } from './driver.ts';

export const POSTGRES_BUCKET_HISTORY_SCHEMA = `
CREATE TABLE attribute_rollups (
  bucket_id TEXT NOT NULL,
  tier TEXT NOT NULL,
  start BIGINT NOT NULL,
  open_ask BIGINT NOT NULL,
  high_ask BIGINT NOT NULL,
  low_ask BIGINT NOT NULL,
  close_ask BIGINT NOT NULL,
  ask_sum BIGINT NOT NULL,
  ask_n BIGINT NOT NULL,
  close_bid BIGINT,
  ask_count INTEGER NOT NULL,
  bid_count INTEGER,
  first_at BIGINT NOT NULL,
  last_at BIGINT NOT NULL,
  PRIMARY KEY (bucket_id, tier, start)
);
CREATE INDEX attribute_rollups_by_age ON attribute_rollups (tier, start);
`;

const COLUMNS =
  'bucket_id, tier, start, open_ask, high_ask, low_ask, close_ask, ask_sum, ask_n, close_bid, ask_count, bid_count, first_at, last_at';
const TYPES = [
  'text',
  'text',
  'int8',
  'int8',
  'int8',
  'int8',
  'int8',
  'int8',
  'int8',
  'int8',
  'int4',
  'int4',
  'int8',
  'int8',
];

const UPSERT = `
INSERT INTO attribute_rollups AS r (${COLUMNS})
SELECT * FROM unnest(${TYPES.map((type, index) => `$${index + 1}::${type}[]`).join(', ')})
ON CONFLICT (bucket_id, tier, start) DO UPDATE SET
  open_ask = CASE WHEN excluded.first_at < r.first_at THEN excluded.open_ask ELSE r.open_ask END,
  high_ask = GREATEST(r.high_ask, excluded.high_ask),
  low_ask = LEAST(r.low_ask, excluded.low_ask),
  close_ask = CASE WHEN excluded.last_at >= r.last_at THEN excluded.close_ask ELSE r.close_ask END,
  ask_sum = r.ask_sum + excluded.ask_sum,
  ask_n = r.ask_n + excluded.ask_n,
  close_bid = CASE WHEN excluded.last_at >= r.last_at THEN excluded.close_bid ELSE r.close_bid END,
  ask_count = CASE WHEN excluded.last_at >= r.last_at THEN excluded.ask_count ELSE r.ask_count END,
  bid_count = CASE WHEN excluded.last_at >= r.last_at THEN excluded.bid_count ELSE r.bid_count END,
  first_at = LEAST(r.first_at, excluded.first_at),
  last_at = GREATEST(r.last_at, excluded.last_at)
WHERE excluded.first_at <> r.first_at AND excluded.first_at <> r.last_at`;

const SELECT = `
SELECT bucket_id, start, open_ask, high_ask, low_ask, close_ask, ask_sum, ask_n, close_bid,
  ask_count, bid_count, first_at, last_at
FROM attribute_rollups WHERE bucket_id = $1 AND tier = $2 AND start >= $3 AND start < $4
ORDER BY start`;

const DELETE = `
DELETE FROM attribute_rollups WHERE (bucket_id, tier, start) IN (
  SELECT bucket_id, tier, start FROM attribute_rollups
  WHERE tier = $1 AND start <= $2 ORDER BY start LIMIT $3)`;

type BucketHistory = Pick<
  HistoryStore,
  'recordBucketObservations' | 'readBucketRollups' | 'deleteBucketRollupsBefore'
>;

/** Observations in rounds that each hold a bucket at most once (one upsert may touch a row once). */
function rounds(observations: readonly BucketObservation[]): BucketObservation[][] {
  const out: BucketObservation[][] = [];
  const seen = new Map<string, number>();
  for (const observation of [...observations].sort((a, b) => a.at - b.at)) {
    const round = seen.get(observation.bucketId) ?? 0;
    seen.set(observation.bucketId, round + 1);
    (out[round] ??= []).push(observation);
  }
  return out;
}

function upsertOf(observations: readonly BucketObservation[]): QueryConfig {
  const columns: unknown[][] = TYPES.map(() => []);
  for (const observation of observations) {
    for (const tier of TIERS) {
      bucketRollupValues(rollupOf(observation, tier), tier).forEach((value, index) =>
        columns[index]!.push(value),
      );
    }
  }
  return { name: 'attribute_rollups_upsert', text: UPSERT, values: columns };
}

export function createPostgresBucketHistory(db: () => Pool): BucketHistory {
  return {
    async recordBucketObservations(observations) {
      if (observations.length === 0) return;
      await inTransaction(db(), async (client) => {
        for (const round of rounds(observations)) await client.query(upsertOf(round));
      });
    },
    async readBucketRollups(bucketId, tier, fromMs, toMs) {
      const result = await db().query<BucketRollupRow>({
        name: 'attribute_rollups_select',
        text: SELECT,
        values: [bucketId, tier, fromMs, toMs],
        rowMode: 'array',
      });
      return result.rows.map(bucketRollupFromRow);
    },
    async deleteBucketRollupsBefore(tier, beforeMs, maxRows) {
      const result = await db().query({
        name: 'attribute_rollups_delete',
        text: DELETE,
        values: [tier, beforeMs - TIER_MS[tier], Math.max(1, maxRows)],
      });
      return result.rowCount ?? 0;
    },
  };
}
