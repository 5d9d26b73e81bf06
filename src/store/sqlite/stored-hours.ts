/**
 * Hours in the SQLite history: while the 10-minute tier holds an hour, the hour is not stored
 * but read as the merge of its six 10-minute buckets (exact: rollups.ts). Only when retention
 * removes an hour's 10-minute buckets is the hour written, as a loose 1h row (packed later as
 * usual), in the same transaction as the removal. A stored hour always wins over the merge: the
 * fold keeps merging late data into it (store-rollups.ts), and data dirs of the layout that
 * stored every hour stay as they are. Both tiers are read with the scans of history-scan.ts.
 */
import { TIER_MS } from '../../pricing/rollup-buckets.ts';
import type { RollupRow } from '../../pricing/rollups.ts';
import { ALL_SECTIONS } from '../history-store.ts';
import { scanDerivedHours, scanRange } from './history-scan.ts';
import { unpackPage } from './rollup-pages.ts';
import { PAGE_BUCKETS } from './page-format.ts';
import { writeRow } from './rollup-row-cache.ts';
import type { RollupStatements } from './rollup-statements.ts';

/** 10-minute buckets per hour. */
export const TENS_PER_HOUR = TIER_MS['1h'] / TIER_MS['10m'];
const HOUR = TIER_MS['1h'];

/**
 * Stores the hours that hold a series' 10-minute buckets in [from, to) (10-minute bucket
 * indexes), each merged from ALL its 10-minute buckets (expired or not), unless already stored
 * (loose or packed) or below the hourly tier's expired mark. Call inside the write transaction
 * that removes those buckets. Returns the highest hour written, or -1.
 */
export function storeHoursOf(
  statements: RollupStatements,
  series: number,
  from: number,
  to: number,
): number {
  let first = Math.max(Math.floor(from / TENS_PER_HOUR), statements.readExpired.get('1h') ?? 0);
  let end = Math.ceil(to / TENS_PER_HOUR);
  const stored = new Set<number>();
  const storedHour = (row: RollupRow) => void stored.add(row.start);
  const hours = { fromMs: first * HOUR, toMs: end * HOUR, sketches: [], reuse: true };
  scanRange(statements, series, '1h', { ...hours, sections: ['sales'], visit: storedHour });
  while (first < end && stored.has(first * HOUR)) first += 1;
  while (first < end && stored.has((end - 1) * HOUR)) end -= 1;
  if (first >= end) return -1;
  let highest = -1;
  let unpacked = -1;
  const write = (row: RollupRow) => {
    if (stored.has(row.start)) return;
    const hour = row.start / HOUR;
    const period = Math.floor(hour / PAGE_BUCKETS['1h']);
    if (period !== unpacked) unpackPage(statements.tiers['1h'], '1h', series, hour);
    unpacked = period;
    writeRow(statements.tiers['1h'], { series, bucket: hour, row });
    highest = hour;
  };
  const range = { fromMs: first * HOUR, toMs: end * HOUR };
  scanDerivedHours(statements, series, { ...range, sections: ALL_SECTIONS, visit: write });
  if (highest >= 0) statements.markFolded.run(0, -1, highest, -1);
  return highest;
}
