/**
 * The upkeep steps of the SQLite history: retention and packing, each a walk over the series in
 * id order in short steps of one transaction that first takes the history file's write lock.
 * Retention range-deletes each series' expired loose rows, then its pages whose period has
 * expired; reads skip the expired buckets of a page reaching past the cutoff (the tier's expired
 * mark). Packing turns the loose rows of every period that ended by the cutoff into pages
 * (rollup-pages.ts). Both store the hours and days (stored-merges.ts) of the 10-minute buckets
 * they remove or pack first; a pass that finds nothing new costs one seek per series.
 */
import type Database from 'better-sqlite3';
import { TIER_MS, type Tier } from '../../pricing/rollup-buckets.ts';
import type { CompactionStep, HistoryStore } from '../history-store.ts';
import { expirePages, packPeriod } from './rollup-pages.ts';
import { PAGE_BUCKETS } from './page-format.ts';
import type { RollupStatements } from './rollup-statements.ts';
import type { StoreRollups } from './store-rollups.ts';
import { storeMergesOf } from './stored-merges.ts';

/** Series examined per step at most (bounds a step that finds little to do). */
const SERIES_PER_STEP = 2_000;

type Upkeep = Pick<Required<HistoryStore>, 'deleteRollupsBefore' | 'packBefore'>;
type Ready = () => Pick<StoreRollups, 'statements' | 'flushBefore'>;

/**
 * Works on one series, about `limit` buckets at most; returns the buckets deleted or packed, and
 * whether the series is finished (if not, the step ends and the next resumes at it).
 */
type SeriesWork = (series: number, limit: number) => { changed: number; finished: boolean };

/** One step over the series from `cursor`; returns the buckets changed and the next cursor. */
function walkSeries(all: RollupStatements, cursor: string | null, max: number, work: SeriesWork) {
  let changed = 0;
  const ids = all.seriesFrom.all(Number(cursor ?? 0), SERIES_PER_STEP).map((row) => row[0]);
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

/** Deletes a series' buckets below `cutoff`, rows then pages (10m ones' merges stored first). */
const deleteSome =
  (all: RollupStatements, tier: Tier, cutoff: number): SeriesWork =>
  (series, limit) => {
    const statements = all.tiers[tier];
    const tens = tier === '10m';
    const beyond = statements.expiredAt.get(series, cutoff, limit);
    const bound = beyond ? beyond.bucket : cutoff;
    const first = tens ? statements.firstBefore.get(series, bound) : undefined;
    if (first !== undefined) storeMergesOf(all, series, first, bound);
    const rows = statements.deleteRows.run(series, 0, bound).changes;
    if (beyond) return { changed: rows, finished: false };
    const width = PAGE_BUCKETS[tier];
    const storeMerges = tens
      ? (period: number) => storeMergesOf(all, series, period * width, (period + 1) * width)
      : undefined;
    const pages = expirePages(statements, tier, series, cutoff, limit - rows, storeMerges);
    return { changed: rows + pages.deleted, finished: !pages.more };
  };

/** Packs a series' loose rows of periods that end by `cutoff`; stores the day of 10m ones first. */
const packSome =
  (all: RollupStatements, tier: Tier, cutoff: number): SeriesWork =>
  (series, limit) => {
    const statements = all.tiers[tier];
    const width = PAGE_BUCKETS[tier];
    const end = Math.floor(cutoff / width) * width;
    let packed = 0;
    for (;;) {
      const first = statements.firstBefore.get(series, end);
      const finished = first === undefined;
      if (finished || packed >= limit) return { changed: packed, finished };
      if (tier === '10m') storeMergesOf(all, series, first, first + 1, ['1d']);
      packed += packPeriod(statements, tier, series, Math.floor(first / width));
    }
  };

export function createHistoryUpkeep(db: Database.Database, ready: Ready): Upkeep {
  const inTransaction = db.transaction((body: () => ReturnType<typeof walkSeries>) => {
    ready().statements.lockHistory.run();
    return body();
  });

  /** `prepare` runs first inside each step's transaction. */
  const step =
    (work: typeof deleteSome, prepare?: (tier: Tier, cutoff: number) => void) =>
    async (tier: Tier, beforeMs: number, options: { cursor: string | null; maxRows: number }) => {
      await ready().flushBefore(beforeMs);
      const { statements } = ready();
      const cutoff = Math.floor(beforeMs / TIER_MS[tier]);
      const maxRows = Math.max(1, options.maxRows);
      const result = inTransaction(() => {
        prepare?.(tier, cutoff);
        return walkSeries(statements, options.cursor, maxRows, work(statements, tier, cutoff));
      });
      return { deleted: result.changed, cursor: result.next } satisfies CompactionStep;
    };

  const raiseExpired = (tier: Tier, cutoff: number) =>
    void ready().statements.raiseExpired.run(tier, cutoff);
  return { deleteRollupsBefore: step(deleteSome, raiseExpired), packBefore: step(packSome) };
}
