/**
 * Attribute-bucket history in SQLite (the bucket half of the HistoryStore port): one row per
 * (tier, bucket start, bucket id) in the prices file, merged as src/store/bucket-history.ts
 * `mergeRollup` merges. Retention deletes rows whose bucket ENDS at or before the cutoff,
 * oldest first, at most `maxRows` per call.
 *
 * Keyed time first (issue 31, migration 10): a bucket id's range read seeks each bucket start
 * of the tier between the table's first and last.
 *
 * Open buckets are written once (issue 31, migration 13): each call appends its observations
 * to a change log (one deflated blob, in the call's own transaction, as the upserts were) and
 * merges them into rows held in memory; a bucket's row is written when it closes
 * (attribute-log.ts). An observation in a bucket already closed is upserted as before. A read
 * merges the stored rows with the held ones.
 */
import type Database from 'better-sqlite3';
import type { BucketObservation, BucketRollup } from '../bucket-history.ts';
import { mergeRollup } from '../bucket-history.ts';
import { bucketStart, TIER_MS, type Tier } from '../../pricing/rollup-buckets.ts';
import {
  bucketRollupFromRow,
  bucketRollupValues,
  type BucketRollupRow,
} from '../bucket-rollup-rows.ts';
import type { HistoryStore } from '../history-store.ts';
import { AttributeLog } from './attribute-log.ts';

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

export const ATTRIBUTE_UPSERT = `
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
      return statements().read(bucketId, tier, fromMs, toMs);
    },
    async deleteBucketRollupsBefore(tier, beforeMs, maxRows) {
      return statements().remove(tier, beforeMs - TIER_MS[tier], Math.max(1, maxRows));
    },
  };
}

function prepare(db: Database.Database) {
  const s = {
    upsert: db.prepare(ATTRIBUTE_UPSERT),
    select: db.prepare(SELECT).raw(true),
    remove: db.prepare(
      `DELETE FROM attribute_rollups WHERE (bucket_id, tier, start) IN (
         SELECT bucket_id, tier, start FROM attribute_rollups
         WHERE tier = ? AND start <= ? ORDER BY start LIMIT ?)`,
    ),
  };
  const log = new AttributeLog(db, (row, tier) => s.upsert.run(...bucketRollupValues(row, tier)));
  /**
   * Runs `step` caught up, in a transaction (a writer's takes the write lock first: it reads
   * before it writes); a failure drops the memory, rebuilt next time.
   */
  const guarded = <A extends unknown[], R>(step: (...args: A) => R, writes: boolean) => {
    const run = db.transaction((...args: A) => {
      log.catchUp();
      return step(...args);
    });
    return (...args: A): R => {
      try {
        return writes ? run.immediate(...args) : run(...args);
      } catch (error) {
        log.reset();
        throw error;
      }
    };
  };
  const read = (bucketId: string, tier: Tier, fromMs: number, toMs: number) => {
    const width = TIER_MS[tier];
    const first = Math.ceil(fromMs / width) * width;
    const query = { first, to: toMs, tier, width, bucket: bucketId };
    const rows = new Map<number, BucketRollup>();
    for (const row of s.select.all(query) as BucketRollupRow[]) {
      const stored = bucketRollupFromRow(row);
      rows.set(stored.start, stored);
    }
    for (const held of log.find(bucketId, tier, first, toMs)) {
      const stored = rows.get(held.start);
      rows.set(held.start, stored === undefined ? held : mergeRollup(stored, held));
    }
    return [...rows.values()].sort((a, b) => a.start - b.start);
  };
  const remove = (tier: Tier, cutoff: number, maxRows: number) => {
    log.close(tier, bucketStart(cutoff, tier) + TIER_MS[tier]);
    return s.remove.run(tier, cutoff, maxRows).changes;
  };
  return {
    record: guarded((observations: readonly BucketObservation[]) => log.record(observations), true),
    read: guarded(read, false),
    remove: guarded(remove, true),
  };
}
