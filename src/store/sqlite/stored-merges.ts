/**
 * Hours and days are merged from their 10-minute buckets until packing or retention stores them
 * (docs/history-storage.md, "Derived hours and days"); a stored one wins over the merge.
 */
import { TIER_MS, TIERS } from '../../pricing/rollup-buckets.ts';
import type { RollupRow } from '../../pricing/rollups.ts';
import { ALL_SECTIONS } from '../history-store.ts';
import { scanMerged, type MergedTier } from './history-scan.ts';
import { unpackPage } from './rollup-pages.ts';
import { PAGE_BUCKETS } from './page-format.ts';
import { writeRow } from './rollup-row-cache.ts';
import type { RollupStatements } from './rollup-statements.ts';

/**
 * Stores the hours or days (`tiers`) holding a series' 10-minute buckets [from, to) (indexes)
 * that scanMerged derives. Call in the write transaction that packs or removes them.
 */
export function storeMergesOf(
  statements: RollupStatements,
  series: number,
  from: number,
  to: number,
  tiers: readonly MergedTier[] = ['1h', '1d'],
): void {
  for (const tier of tiers) {
    const width = TIER_MS[tier];
    const tens = width / TIER_MS['10m'];
    let [highest, unpacked] = [-1, -1];
    const write = (row: RollupRow) => {
      const bucket = row.start / width;
      const period = Math.floor(bucket / PAGE_BUCKETS[tier]);
      if (period !== unpacked) unpackPage(statements.tiers[tier], tier, series, bucket);
      unpacked = period;
      writeRow(statements.tiers[tier], { series, bucket, row });
      highest = bucket;
    };
    const range = { fromMs: Math.floor(from / tens) * width, toMs: Math.ceil(to / tens) * width };
    const scan = { ...range, sections: ALL_SECTIONS, visit: () => undefined, derived: write };
    scanMerged(statements, series, tier, scan);
    statements.markFolded.run(...TIERS.map((at) => (at === tier ? highest : -1)));
  }
}
