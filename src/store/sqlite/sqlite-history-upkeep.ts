/**
 * The upkeep steps of the SQLite history: retention and runs. Both walk the series in id order
 * in short steps, each one transaction that first takes the history file's write lock; a step
 * that changed anything empties this connection's row cache (a fold thread's cache notices the
 * history file's data_version move).
 *
 * Retention deletes each series' expired buckets with a primary-key range delete, so a step
 * costs what it deletes (plus one seek per series), never a scan of the rows it keeps; a run
 * that reaches past the cutoff first gives up its expired buckets. A run pass looks at the
 * buckets between the tier's settled mark and the cutoff (plus the row before, which a run may
 * continue) and joins equal neighbours into runs (run-collapse.ts); once the pass is complete
 * the settled mark moves up to the cutoff, so the next pass starts there. A fold that writes
 * below the mark lowers it (late data may now equal its neighbours), and one that writes while
 * a pass runs keeps the mark from rising past what it wrote, so the next pass looks again.
 */
import type Database from 'better-sqlite3';
import { TIER_MS, TIERS, type Tier } from '../../pricing/rollup-buckets.ts';
import type { CompactionStep, HistoryStore } from '../history-store.ts';
import type { TierStatements } from './rollup-statements.ts';
import { collapseRows } from './run-collapse.ts';
import type { StoreRollups } from './store-rollups.ts';

/** Series examined per step at most (bounds a step that finds little to do). */
const SERIES_PER_STEP = 2_000;
/** Rows a run step reads per series at least (so a step cut short always gets further). */
const MIN_RUN_ROWS = 64;

type Upkeep = Pick<Required<HistoryStore>, 'deleteRollupsBefore' | 'collapseRunsBefore'>;
type Ready = () => Pick<StoreRollups, 'statements' | 'flushOwn' | 'rowsRewritten'>;

interface StepOfSeries {
  /** Rows deleted. */
  changed: number;
  /** Rows deleted or rewritten (a run cut at the retention cutoff): the row cache goes. */
  touched: number;
  /** Rows deleted or examined: what the step's budget counts. */
  cost: number;
  /** False when the series has more to do: the step ends, resuming at `resume`. */
  finished: boolean;
  resume?: number;
}

/** Deletes at most `limit` of a series' buckets below `cutoff`; true when none remain. */
function deleteSome(
  statements: TierStatements,
  series: number,
  cutoff: number,
  limit: number,
): StepOfSeries {
  const trimmed = statements.trimRunAcross.run(cutoff, cutoff, series, series, cutoff, cutoff);
  const beyond = statements.expiredAt.get(series, cutoff, limit);
  const bound = beyond ? beyond.bucket : cutoff;
  const changed = statements.deleteBefore.run(series, bound).changes;
  return { changed, touched: changed + trimmed.changes, cost: changed, finished: !beyond };
}

/** Joins runs among up to `limit` rows of a series from `from`; true when it got to `cutoff`. */
function collapseSome(
  statements: TierStatements,
  series: number,
  from: number,
  cutoff: number,
  limit: number,
): StepOfSeries {
  const rows = statements.selectRuns.all(series, series, from, from, cutoff, limit);
  const { removed, lastHead } = collapseRows(statements, series, rows);
  const finished = rows.length < limit || lastHead === null;
  return {
    changed: removed,
    touched: removed,
    cost: rows.length,
    finished,
    resume: lastHead ?? cutoff,
  };
}

/** A step's position: the next series, and within it the bucket to resume from. */
interface Cursor {
  series: number;
  bucket: number | null;
}

const parseCursor = (cursor: string | null): Cursor => {
  const [series, bucket] = (cursor ?? '0').split(':');
  return { series: Number(series), bucket: bucket === undefined ? null : Number(bucket) };
};

type SeriesWork = (
  statements: TierStatements,
  series: number,
  from: Cursor['bucket'],
  limit: number,
) => StepOfSeries;

interface StepResult {
  changed: number;
  touched: number;
  next: string | null;
}

/** One step over the series from `cursor`; returns the rows changed and the next cursor. */
function walkSeries(
  ready: Ready,
  tier: Tier,
  cursor: Cursor,
  maxRows: number,
  work: SeriesWork,
): StepResult {
  const { statements } = ready();
  const total = { changed: 0, touched: 0 };
  let cost = 0;
  let resume = cursor.bucket;
  const ids = statements.seriesFrom.all(cursor.series, SERIES_PER_STEP).map((row) => row[0]);
  for (const id of ids) {
    const step = work(statements.tiers[tier], id, resume, maxRows - cost);
    resume = null;
    total.changed += step.changed;
    total.touched += step.touched;
    cost += step.cost;
    if (!step.finished) {
      return { ...total, next: step.resume === undefined ? `${id}` : `${id}:${step.resume}` };
    }
    if (cost >= maxRows) return { ...total, next: `${id + 1}` };
  }
  const last = ids[ids.length - 1];
  const done = ids.length < SERIES_PER_STEP || last === undefined;
  return { ...total, next: done ? null : `${last + 1}` };
}

export function createHistoryUpkeep(db: Database.Database, ready: Ready): Upkeep {
  const inTransaction = db.transaction((body: () => StepResult) => {
    ready().statements.lockHistory.run();
    return body();
  });

  const step = async (body: () => StepResult): Promise<CompactionStep> => {
    await ready().flushOwn();
    const result = inTransaction(body);
    if (result.touched > 0) ready().rowsRewritten();
    return { deleted: result.changed, cursor: result.next };
  };

  return {
    deleteRollupsBefore(tier, beforeMs, { cursor, maxRows }) {
      const cutoff = Math.floor(beforeMs / TIER_MS[tier]);
      return step(() =>
        walkSeries(
          ready,
          tier,
          parseCursor(cursor),
          Math.max(1, maxRows),
          (statements, id, _resume, limit) => deleteSome(statements, id, cutoff, limit),
        ),
      );
    },
    collapseRunsBefore(tier, beforeMs, { cursor, maxRows }) {
      const cutoff = Math.floor(beforeMs / TIER_MS[tier]);
      return step(() => {
        const { statements } = ready();
        if (cursor === null) statements.startRunPass(tier).run();
        const settled = statements.readSettled.get()![TIERS.indexOf(tier)]!;
        const result = walkSeries(
          ready,
          tier,
          parseCursor(cursor),
          Math.max(1, maxRows),
          (tierStatements, id, resume, limit) =>
            collapseSome(
              tierStatements,
              id,
              resume ?? settled,
              cutoff,
              Math.max(limit, MIN_RUN_ROWS),
            ),
        );
        if (result.next === null) statements.finishRunPass(tier).run(cutoff);
        return result;
      });
    },
  };
}
