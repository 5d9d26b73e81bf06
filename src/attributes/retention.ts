/**
 * Attribute-bucket history keeps the price history's retention tiers (history-compaction.ts:
 * 10-minute rows 45 days, hourly 180 days, daily forever), deleted in steps of a few thousand
 * rows so no step holds the store for long.
 */
import { DEFAULT_RETENTION, DEFAULT_ROWS_PER_STEP } from '../store/history-compaction.ts';
import type { HistoryStore } from '../store/history-store.ts';
import { TIERS } from '../pricing/rollup-buckets.ts';

export async function pruneBucketHistory(
  store: Pick<HistoryStore, 'deleteBucketRollupsBefore'>,
  now: number,
  rowsPerStep = DEFAULT_ROWS_PER_STEP,
): Promise<number> {
  let deleted = 0;
  for (const tier of TIERS) {
    const keep = DEFAULT_RETENTION[tier];
    if (keep === null) continue;
    for (;;) {
      const step = await store.deleteBucketRollupsBefore(tier, now - keep, rowsPerStep);
      deleted += step;
      if (step < rowsPerStep) break;
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
  }
  return deleted;
}
