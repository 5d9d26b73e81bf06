/**
 * Retention of raw rows in the store: listings not seen for a while, old fetch records and old
 * raw sales. Runs on the ingest side (it owns writes), on a timer.
 */
import { DAY, HOUR, MINUTE } from '../domain/clock.ts';
import { GAMES } from '../domain/games.ts';
import { MARKETS_BY_GAME } from '../domain/markets.ts';
import { pruneBucketHistory } from '../attributes/retention.ts';
import { compactHistory } from '../store/history-compaction.ts';
import type { HistoryStore } from '../store/history-store.ts';
import type { PriceStore } from '../store/price-store.ts';

export interface RetentionPolicy {
  /** A listing not seen again within this window is gone from the market. */
  listingsUnseenMs: number;
  fetchRecordsMs: number;
  rawSalesMs: number;
}

export const DEFAULT_RETENTION: RetentionPolicy = {
  listingsUnseenMs: 2 * HOUR,
  fetchRecordsMs: 7 * DAY,
  rawSalesMs: 90 * DAY,
};

export const RETENTION_INTERVAL_MS = 10 * MINUTE;

/**
 * One retention pass: raw rows, then (when the store keeps history) expired rollup buckets and
 * packing of settled periods, in small steps, so neither reads nor ingest wait on it.
 */
export async function applyRetention(
  store: Pick<PriceStore, 'pruneListings' | 'prune'> &
    Partial<Pick<HistoryStore, 'deleteRollupsBefore' | 'packBefore' | 'deleteBucketRollupsBefore'>>,
  now: number,
  policy: RetentionPolicy = DEFAULT_RETENTION,
): Promise<number> {
  let listingsRemoved = 0;
  for (const game of GAMES) {
    for (const market of MARKETS_BY_GAME[game]) {
      listingsRemoved += await store.pruneListings(game, market, now - policy.listingsUnseenMs);
    }
  }
  await store.prune({
    fetchesBeforeMs: now - policy.fetchRecordsMs,
    salesBeforeMs: now - policy.rawSalesMs,
  });
  const deleteRollupsBefore = store.deleteRollupsBefore?.bind(store);
  const packBefore = store.packBefore?.bind(store);
  if (deleteRollupsBefore) await compactHistory({ deleteRollupsBefore, packBefore }, now);
  const deleteBucketRollupsBefore = store.deleteBucketRollupsBefore?.bind(store);
  if (deleteBucketRollupsBefore) await pruneBucketHistory({ deleteBucketRollupsBefore }, now);
  return listingsRemoved;
}
