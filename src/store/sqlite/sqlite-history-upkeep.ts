/**
 * The retention and packing steps of the SQLite history, each one transaction holding the history
 * file's lock (docs/history-storage.md, "SQLite layout" and "Retention").
 */
import type Database from 'better-sqlite3';
import { TIER_MS, type Tier } from '../../pricing/rollup-buckets.ts';
import type { CompactionStep } from '../history-store.ts';
import { expirePages, packSeriesRange } from './rollup-pages.ts';
import { decodeChunk } from './rollup-chunks.ts';
import { PAGE_BUCKETS } from './page-format.ts';
import type { MergedTier } from './history-scan.ts';
import type { RollupStatements } from './rollup-statements.ts';
import type { StoreRollups } from './store-rollups.ts';
import { storeMergesOf } from './stored-merges.ts';

type Cursor = string | null;

/**
 * Deletes the oldest loose rows below `cutoff`, at most `limit` (a period's table whole), storing
 * the merges of 10-minute ones first. Returns the buckets deleted (a chunk's entries each).
 */
function deleteLoose(all: RollupStatements, tier: Tier, cutoff: number, limit: number): number {
  const [{ loose }, width] = [all.tiers[tier], PAGE_BUCKETS[tier]];
  const [period = Infinity] = loose.periods();
  const table = period * width < cutoff ? loose.of(period * width) : undefined;
  const rows = table?.expiredRows.before.all(cutoff, limit) ?? [];
  const firsts = new Map<number, number>();
  let buckets = 0;
  for (const [bucket, key, ask] of rows)
    for (const series of key >= 0 ? [key] : decodeChunk(key, ask!).keys()) {
      buckets += 1;
      if (!firsts.has(series)) firsts.set(series, bucket);
    }
  if (tier === '10m')
    for (const [series, first] of firsts) storeMergesOf(all, series, first, cutoff);
  if (rows.length < limit && (period + 1) * width <= cutoff) {
    loose.drop(period);
    return buckets + deleteLoose(all, tier, cutoff, limit - rows.length);
  }
  if (rows.length > 0) table!.expiredRows.through.run(rows.at(-1)![0], rows.at(-1)![1]);
  return buckets;
}

const storeMerges =
  (all: RollupStatements, tiers?: MergedTier[]) => (series: number, from: number, to: number) =>
    storeMergesOf(all, series, from, to, tiers);

/** One retention step: loose rows below the cutoff, then pages, oldest first (time first). */
function deleteSome(all: RollupStatements, tier: Tier, cutoff: number, _: Cursor, max: number) {
  all.lockHistory();
  all.raiseExpired.run(tier, cutoff);
  const loose = deleteLoose(all, tier, cutoff, max);
  if (loose >= max) return { deleted: loose, cursor: '' };
  const beforeExpiry = tier === '10m' ? storeMerges(all) : undefined;
  const pages = expirePages(all.tiers[tier], tier, cutoff, max - loose, beforeExpiry);
  return { deleted: loose + pages.deleted, cursor: pages.more ? '' : null };
}

/**
 * One packing step: the loose rows of the oldest period that ends by `cutoff`, for `max` / 16
 * series; past the last, the series added or unpacked since, then it drops the period's table.
 */
function packSome(all: RollupStatements, tier: Tier, cutoff: number, cursor: Cursor, max: number) {
  all.lockHistory();
  const [{ loose }, width] = [all.tiers[tier], PAGE_BUCKETS[tier]];
  const [period = Infinity] = loose.periods();
  if ((period + 1) * width > cutoff) return { deleted: 0, cursor: null };
  const [at, next = 0] = (cursor ?? '-1').split(':').map(Number);
  const [start, from] = [at === period ? next : 0, period * width];
  const afterPack = tier === '10m' ? storeMerges(all, ['1d']) : undefined;
  const pack = (series: number, last: number) =>
    packSeriesRange(all.tiers[tier], tier, { from, to: from + width, series, last }, afterPack);
  const last = start + Math.ceil(max / 16);
  if (start <= all.lastSeries.get()!)
    return { deleted: pack(start, last), cursor: `${period}:${last}` };
  const deleted = pack(start, Number.MAX_SAFE_INTEGER);
  for (const [, marked] of loose.of(from)!.expiredRows.before.all(0, -1)) pack(marked, marked + 1);
  loose.drop(period);
  return { deleted, cursor: '' };
}

export function createHistoryUpkeep(db: Database.Database, ready: () => StoreRollups) {
  const step = (work: (...args: Parameters<typeof packSome>) => CompactionStep) => {
    const inTransaction = db.transaction(work);
    return async (tier: Tier, beforeMs: number, options: { cursor: Cursor; maxRows: number }) => {
      await ready().flushBefore(beforeMs);
      const cutoff = Math.floor(beforeMs / TIER_MS[tier]);
      const maxRows = Math.max(1, options.maxRows);
      return inTransaction(ready().statements, tier, cutoff, options.cursor, maxRows);
    };
  };

  return { deleteRollupsBefore: step(deleteSome), packBefore: step(packSome) };
}
