/**
 * The upkeep steps of the SQLite history: retention and packing, in short steps of one
 * transaction that first takes the history file's write lock. Loose rows are keyed time first:
 * retention deletes the oldest ones below the cutoff in key order, storing the hours of
 * 10-minute ones first (stored-hours.ts), then walks the series in id order for their pages
 * whose period has expired; reads skip the expired buckets of a page reaching past the cutoff
 * (the tier's expired mark, raised by each step). Packing reads the settled loose rows back a
 * range of series at a time into pages (rollup-pages.ts); a pass that finds none costs a seek.
 */
import type Database from 'better-sqlite3';
import { TIER_MS, type Tier } from '../../pricing/rollup-buckets.ts';
import type { CompactionStep, HistoryStore } from '../history-store.ts';
import { expirePages, packSeriesRange } from './rollup-pages.ts';
import { PAGE_BUCKETS } from './page-format.ts';
import type { RollupStatements } from './rollup-statements.ts';
import type { StoreRollups } from './store-rollups.ts';
import { storeHoursOf } from './stored-hours.ts';

/** Series examined per step at most (bounds a step that finds little to do). */
const SERIES_PER_STEP = 2_000;

type Cursor = string | null;
type Upkeep = Pick<Required<HistoryStore>, 'deleteRollupsBefore' | 'packBefore'>;
type Ready = () => Pick<StoreRollups, 'statements' | 'flushBefore'>;

/**
 * Works on one series, about `limit` buckets at most; returns the buckets deleted or packed, and
 * whether the series is finished (if not, the step ends and the next resumes at it).
 */
type SeriesWork = (series: number, limit: number) => { changed: number; finished: boolean };

/** One step over the series from `cursor`; returns the buckets changed and the next cursor. */
function walkSeries(statements: RollupStatements, cursor: Cursor, max: number, work: SeriesWork) {
  let changed = 0;
  const ids = statements.seriesFrom.all(Number(cursor ?? 0), SERIES_PER_STEP).map((row) => row[0]);
  for (const id of ids) {
    const step = work(id, max - changed);
    changed += step.changed;
    if (!step.finished) return { changed, next: `${id}` };
    if (changed >= max) return { changed, next: `${id + 1}` };
  }
  const last = ids[ids.length - 1];
  const done = ids.length < SERIES_PER_STEP || last === undefined;
  return { changed, next: done ? null : `${last + 1}` };
}

/**
 * Deletes the oldest loose rows below `cutoff`, at most `limit`, in key order; stores the hours
 * of 10-minute ones first. Returns the rows deleted.
 */
function deleteLoose(all: RollupStatements, tier: Tier, cutoff: number, limit: number): number {
  const rows = all.tiers[tier].rowsBefore.all(cutoff, limit);
  const firsts = new Map<number, number>();
  for (const [bucket, series] of rows) if (!firsts.has(series)) firsts.set(series, bucket);
  if (tier === '10m')
    for (const [series, first] of firsts) storeHoursOf(all, series, first, cutoff);
  const [bucket, series] = rows[rows.length - 1] ?? [-1, -1];
  return rows.length && all.tiers[tier].deleteThrough.run(bucket, series).changes;
}

/** Deletes a series' pages whose period ended by `cutoff`, storing the hours of 10m ones first. */
const deletePages =
  (all: RollupStatements, tier: Tier, cutoff: number): SeriesWork =>
  (series, limit) => {
    const perPage = PAGE_BUCKETS[tier];
    const beforeExpiry = (period: number) =>
      void storeHoursOf(all, series, period * perPage, (period + 1) * perPage);
    const pages = expirePages(
      all.tiers[tier],
      tier,
      series,
      cutoff,
      limit,
      tier === '10m' ? beforeExpiry : undefined,
    );
    return { changed: pages.deleted, finished: !pages.more };
  };

/** One retention step: loose rows below the cutoff first (time first), then pages by series. */
function deleteSome(
  all: RollupStatements,
  tier: Tier,
  cutoff: number,
  cursor: Cursor,
  max: number,
) {
  all.raiseExpired.run(tier, cutoff);
  const loose = deleteLoose(all, tier, cutoff, max);
  if (loose >= max) return { changed: loose, next: cursor ?? '0' };
  const pages = walkSeries(all, cursor, max - loose, deletePages(all, tier, cutoff));
  return { changed: loose + pages.changed, next: pages.next };
}

/**
 * One packing step: the loose rows of periods that end by `cutoff`, for a range of series
 * sized to about `max` rows (a full period per series); returns the rows packed.
 */
function packSome(all: RollupStatements, tier: Tier, cutoff: number, cursor: Cursor, max: number) {
  const width = PAGE_BUCKETS[tier];
  const to = Math.floor(cutoff / width) * width;
  const [from] = all.tiers[tier].looseBounds.get()!;
  const series = Number(cursor ?? 0);
  if (from === null || from >= to || series > all.lastSeries.get()!)
    return { changed: 0, next: null };
  const last = series + Math.max(1, Math.floor(max / Math.min(to - from, width)));
  const range = { series, last, from, to };
  return { changed: packSeriesRange(all.tiers[tier], tier, range), next: `${last}` };
}

export function createHistoryUpkeep(db: Database.Database, ready: Ready): Upkeep {
  const inTransaction = db.transaction((body: () => ReturnType<typeof packSome>) => {
    ready().statements.lockHistory.run();
    return body();
  });

  const step =
    (work: typeof packSome) =>
    async (tier: Tier, beforeMs: number, options: { cursor: Cursor; maxRows: number }) => {
      await ready().flushBefore(beforeMs);
      const { statements } = ready();
      const cutoff = Math.floor(beforeMs / TIER_MS[tier]);
      const maxRows = Math.max(1, options.maxRows);
      const result = inTransaction(() => work(statements, tier, cutoff, options.cursor, maxRows));
      return { deleted: result.changed, cursor: result.next } satisfies CompactionStep;
    };

  return { deleteRollupsBefore: step(deleteSome), packBefore: step(packSome) };
}
