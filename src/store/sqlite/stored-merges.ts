/**
 * Hours and days are merged from their 10-minute buckets until packing or retention stores them
 * (docs/history-storage.md, "Derived hours and days"); a stored one wins over the merge.
 */
import { TIER_MS, TIERS } from '../../pricing/rollup-buckets.ts';
import type { RollupRow } from '../../pricing/rollups.ts';
import { ALL_SECTIONS } from '../history-store.ts';
import { scanDerived, scanRange, type MergedTier } from './history-scan.ts';
import { unpackPage } from './rollup-pages.ts';
import { PAGE_BUCKETS } from './page-format.ts';
import { writeRow } from './rollup-row-cache.ts';
import type { RollupStatements } from './rollup-statements.ts';

/**
 * Stores the hours or days (`tiers`) holding a series' 10-minute buckets [from, to) (indexes),
 * each merged from ALL its 10-minute buckets (expired or not), unless stored (loose or packed)
 * or below its tier's expired mark. Call in the write transaction that packs or removes them.
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
    let first = Math.max(Math.floor(from / tens), statements.readExpired.get(tier) ?? 0);
    let end = Math.ceil(to / tens);
    const stored = new Set<number>();
    const range = () => ({ fromMs: first * width, toMs: end * width });
    const visit = (row: RollupRow) => void stored.add(row.start);
    scanRange(statements, series, tier, { ...range(), sections: ['sales'], sketches: [], visit });
    while (first < end && stored.has(first * width)) first += 1;
    while (first < end && stored.has((end - 1) * width)) end -= 1;
    if (first >= end) continue;
    let [highest, unpacked] = [-1, -1];
    const write = (row: RollupRow) => {
      if (stored.has(row.start)) return;
      const bucket = row.start / width;
      const period = Math.floor(bucket / PAGE_BUCKETS[tier]);
      if (period !== unpacked) unpackPage(statements.tiers[tier], tier, series, bucket);
      unpacked = period;
      writeRow(statements.tiers[tier], { series, bucket, row });
      highest = bucket;
    };
    scanDerived(statements, series, tier, { ...range(), sections: ALL_SECTIONS, visit: write });
    statements.markFolded.run(...TIERS.map((at) => (at === tier ? highest : -1)));
  }
}
