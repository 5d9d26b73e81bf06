/**
 * Attribute-bucket history in SQLite (the bucket half of the HistoryStore port): one row per
 * (tier, bucket start, bucket id) in the prices file, merged by an upsert that follows
 * src/store/bucket-history.ts `mergeRollup` (every right-hand side reads the old row).
 * Written in one transaction per call; retention deletes rows whose bucket ENDS at or before the
 * cutoff, oldest first, at most `maxRows` per call.
 *
 * Keyed time first (issue 31, migration 10): a call's rows are the open buckets of each tier, so
 * they share the pages at the end of each tier's range instead of dirtying one page per bucket
 * id in a table that grows all day (about 2.6x the bytes once a day of rows was behind them). A
 * bucket id's range read seeks each bucket start of the tier between the table's first and last.
 */
import type Database from 'better-sqlite3';
import type { BucketObservation } from '../bucket-history.ts';
import { rollupOf } from '../bucket-history.ts';
import { TIERS, TIER_MS } from '../../pricing/rollup-buckets.ts';
import {
  bucketRollupFromRow,
  bucketRollupValues,
  type BucketRollupRow,
} from '../bucket-rollup-rows.ts';
import type { HistoryStore } from '../history-store.ts';

export const SQLITE_BUCKET_HISTORY_SCHEMA = `
CREATE TABLE attribute_rollups (
  bucket_id TEXT NOT NULL,
  tier TEXT NOT NULL,
  start INTEGER NOT NULL,
  open_ask INTEGER NOT NULL,
  high_ask INTEGER NOT NULL,
  low_ask INTEGER NOT NULL,
  close_ask INTEGER NOT NULL,
  ask_sum INTEGER NOT NULL,
  ask_n INTEGER NOT NULL,
  close_bid INTEGER,
  ask_count INTEGER NOT NULL,
  bid_count INTEGER,
  first_at INTEGER NOT NULL,
  last_at INTEGER NOT NULL,
  PRIMARY KEY (bucket_id, tier, start)
) STRICT, WITHOUT ROWID;
CREATE INDEX attribute_rollups_by_age ON attribute_rollups (tier, start);
`;

const UPSERT = `
INSERT INTO attribute_rollups (bucket_id, tier, start, open_ask, high_ask, low_ask, close_ask,
  ask_sum, ask_n, close_bid, ask_count, bid_count, first_at, last_at)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
ON CONFLICT (bucket_id, tier, start) DO UPDATE SET
  open_ask = CASE WHEN excluded.first_at < first_at THEN excluded.open_ask ELSE open_ask END,
  high_ask = MAX(high_ask, excluded.high_ask),
  low_ask = MIN(low_ask, excluded.low_ask),
  close_ask = CASE WHEN excluded.last_at >= last_at THEN excluded.close_ask ELSE close_ask END,
  ask_sum = ask_sum + excluded.ask_sum,
  ask_n = ask_n + excluded.ask_n,
  close_bid = CASE WHEN excluded.last_at >= last_at THEN excluded.close_bid ELSE close_bid END,
  ask_count = CASE WHEN excluded.last_at >= last_at THEN excluded.ask_count ELSE ask_count END,
  bid_count = CASE WHEN excluded.last_at >= last_at THEN excluded.bid_count ELSE bid_count END,
  first_at = MIN(first_at, excluded.first_at),
  last_at = MAX(last_at, excluded.last_at)
WHERE excluded.first_at <> attribute_rollups.first_at
  AND excluded.first_at <> attribute_rollups.last_at`;

/** Rebuilds version 7's table keyed time first; its (tier, start) index is the key's prefix. */
export const SQLITE_BUCKET_HISTORY_TIME_FIRST = `
CREATE TABLE attribute_rollups_by_time (
  bucket_id TEXT NOT NULL, tier TEXT NOT NULL, start INTEGER NOT NULL,
  open_ask INTEGER NOT NULL, high_ask INTEGER NOT NULL, low_ask INTEGER NOT NULL,
  close_ask INTEGER NOT NULL, ask_sum INTEGER NOT NULL, ask_n INTEGER NOT NULL,
  close_bid INTEGER, ask_count INTEGER NOT NULL, bid_count INTEGER,
  first_at INTEGER NOT NULL, last_at INTEGER NOT NULL,
  PRIMARY KEY (tier, start, bucket_id)
) STRICT, WITHOUT ROWID;
INSERT INTO attribute_rollups_by_time SELECT * FROM attribute_rollups ORDER BY tier, start, bucket_id;
DROP TABLE attribute_rollups;
ALTER TABLE attribute_rollups_by_time RENAME TO attribute_rollups;
`;

const SELECT = `
WITH RECURSIVE span(lo, hi) AS (
  SELECT max(@first, min(start)), min(@to, max(start) + 1) FROM attribute_rollups WHERE tier = @tier),
starts(start) AS (
  SELECT lo FROM span WHERE lo IS NOT NULL
  UNION ALL SELECT starts.start + @width FROM starts, span WHERE starts.start + @width < span.hi)
SELECT bucket_id, r.start, open_ask, high_ask, low_ask, close_ask, ask_sum, ask_n, close_bid,
  ask_count, bid_count, first_at, last_at
FROM starts CROSS JOIN attribute_rollups r ON r.tier = @tier AND r.start = starts.start AND r.bucket_id = @bucket
ORDER BY r.start`;

type BucketHistory = Pick<
  HistoryStore,
  'recordBucketObservations' | 'readBucketRollups' | 'deleteBucketRollupsBefore'
>;

export function createSqliteBucketHistory(db: () => Database.Database): BucketHistory {
  let prepared: ReturnType<typeof prepare> | null = null;
  const statements = () => (prepared ??= prepare(db()));
  return {
    async recordBucketObservations(observations) {
      if (observations.length > 0) statements().record(observations);
    },
    async readBucketRollups(bucketId, tier, fromMs, toMs) {
      const width = TIER_MS[tier];
      const first = Math.ceil(fromMs / width) * width;
      const rows = statements().select.all({
        first,
        to: toMs,
        tier,
        width,
        bucket: bucketId,
      }) as BucketRollupRow[];
      return rows.map(bucketRollupFromRow);
    },
    async deleteBucketRollupsBefore(tier, beforeMs, maxRows) {
      const cutoff = beforeMs - TIER_MS[tier];
      return statements().remove.run(tier, cutoff, Math.max(1, maxRows)).changes;
    },
  };
}

function prepare(db: Database.Database) {
  const upsert = db.prepare(UPSERT);
  const select = db.prepare(SELECT).raw(true);
  const remove = db.prepare(
    `DELETE FROM attribute_rollups WHERE (bucket_id, tier, start) IN (
       SELECT bucket_id, tier, start FROM attribute_rollups
       WHERE tier = ? AND start <= ? ORDER BY start LIMIT ?)`,
  );
  const record = db.transaction((observations: readonly BucketObservation[]) => {
    for (const observation of observations) {
      for (const tier of TIERS)
        upsert.run(...bucketRollupValues(rollupOf(observation, tier), tier));
    }
  });
  return { record, select, remove };
}
