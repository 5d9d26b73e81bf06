/**
 * Hours and days in the SQLite history: while the 10-minute tier holds them, they are not
 * stored but read as the merge of their 10-minute buckets (exact: rollups.ts). A day is written
 * once, when packing turns its 10-minute buckets into a page; hours and any day not stored yet
 * when retention removes their 10-minute buckets, in the same transaction as the removal. They
 * are written as loose rows (packed later as usual). A stored one always wins over the merge:
 * the fold keeps merging late data into it (store-rollups.ts), and data dirs of the layouts that
 * stored every hour or day stay as they are. Both are read with the scans of history-scan.ts.
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
 * Stores the hours or days (`tiers`) that hold a series' 10-minute buckets in [from, to)
 * (10-minute bucket indexes), each merged from ALL its 10-minute buckets (expired or not),
 * unless already stored (loose or packed) or below its tier's expired mark. Call inside the
 * write transaction that packs or removes those buckets.
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
    const storedRow = (row: RollupRow) => void stored.add(row.start);
    const range = () => ({ fromMs: first * width, toMs: end * width });
    const sales = { sections: ['sales'] as const, sketches: [], reuse: true, visit: storedRow };
    scanRange(statements, series, tier, { ...range(), ...sales });
    while (first < end && stored.has(first * width)) first += 1;
    while (first < end && stored.has((end - 1) * width)) end -= 1;
    let highest = -1;
    let unpacked = -1;
    const write = (row: RollupRow) => {
      if (stored.has(row.start)) return;
      const bucket = row.start / width;
      const period = Math.floor(bucket / PAGE_BUCKETS[tier]);
      if (period !== unpacked) unpackPage(statements.tiers[tier], tier, series, bucket);
      unpacked = period;
      writeRow(statements.tiers[tier], { series, bucket, row });
      highest = bucket;
    };
    if (first < end)
      scanDerived(statements, series, tier, { ...range(), sections: ALL_SECTIONS, visit: write });
    if (highest >= 0)
      statements.markFolded.run(0, ...TIERS.map((at) => (at === tier ? highest : -1)));
  }
}
