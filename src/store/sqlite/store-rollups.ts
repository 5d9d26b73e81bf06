/**
 * The rollup side of one SQLite store object. Each batch's transaction journals the batch
 * (rollup-journal.ts). A fold is one transaction holding the history file's write lock: it
 * replays the journal past the fold mark into the decoded rows it touches (rollup-row-cache.ts:
 * 10m rows, 1h and 1d rows only where stored, stored-merges.ts), dropping snapshots already
 * counted (recordSide), writes each changed row once and moves the mark with them, so folders
 * fold every entry exactly once and one that dies loses nothing.
 *
 * The store folds on its own connection (FOLD_POLICY, checked after each batch and each second)
 * the entries committed before a 10-minute boundary once it has passed, so each 10-minute row is
 * written once, complete. It also folds before reads of what it journaled, and before an upkeep
 * step the closed periods, plus the open one if an entry of it observed something before the
 * step's time (folding it early would write its rows twice). A store that only reads folds only
 * on open (by default), what a process that died left in the journal.
 */
import type Database from 'better-sqlite3';
import type { Clock } from '../../domain/clock.ts';
import type { SaleRecord, SideSnapshot } from '../../domain/quote.ts';
import { TIER_MS, TIERS, type Tier } from '../../pricing/rollup-buckets.ts';
import { recordSale, recordSide, type RowLookup } from '../../pricing/rollups.ts';
import { journalBatch, JournalWriter, replayJournal, type JournalSink } from './rollup-journal.ts';
import { SECTION_BITS } from './page-format.ts';
import { RollupRowCache, writeRow, type CachedRow } from './rollup-row-cache.ts';
import { prepareRollupStatements, type RollupStatements } from './rollup-statements.ts';
import { SeriesDirectory } from './series-directory.ts';

/**
 * When a fold is due: once the clock has passed a multiple of `closeMs` (the 10-minute bucket
 * width) since the entries were committed, or after this many batches journaled since the last
 * fold (an import or a backfill); checked after each batch and every checkMs.
 */
export const FOLD_POLICY = { closeMs: TIER_MS['10m'], batches: 2000, checkMs: 1000 };

/**
 * Changed rows a fold holds decoded at most (the bound on its heap): past it, they are written
 * and dropped, and the fold goes on in the same transaction, so each page it changes reaches the
 * WAL once (the page cache holds them), not once per transaction as when it committed there.
 */
const ROWS_PER_WRITE = 50_000;

/** Hands recordSide / recordSale the cached rows of an entry's two series; marks what changed. */
function rowSink(cache: RollupRowCache, changed: CachedRow[]): JournalSink {
  const touched: CachedRow[] = [];
  let [own, all, at] = [0, 0, 0];
  /** An hour or a day not stored is derived: its observations go nowhere. */
  const rows: RowLookup = (scope, tier: Tier) => {
    const series = scope === 'market' ? own : all;
    const cached = tier !== '10m' && !cache.mayHold(tier, at) ? null : cache.get(tier, series, at);
    if (tier !== '10m' && !cached?.stored) return null;
    touched.push(cached!);
    return cached!.row;
  };
  const entry = (marketSeries: number, aggregateSeries: number, time: number) => {
    [own, all, at] = [marketSeries, aggregateSeries, time];
    touched.length = 0;
  };
  const markTouched = (section: number) => {
    for (const cached of touched) {
      if (cached.dirty === 0) changed.push(cached);
      cached.dirty |= section;
    }
  };
  return {
    side(marketSeries, aggregateSeries, obs) {
      entry(marketSeries, aggregateSeries, obs.at);
      if (recordSide(rows, obs)) markTouched(SECTION_BITS[obs.side]);
    },
    sale(marketSeries, aggregateSeries, price, units, time) {
      entry(marketSeries, aggregateSeries, time);
      recordSale(rows, price, units);
      markTouched(SECTION_BITS.sales);
    },
  };
}

export interface StoreRollupsOptions {
  clock: Clock;
  /** Errors of the folds the store runs by itself (the entries stay for the next one). */
  onFoldError: (message: string) => void;
  /** Fold what is in the journal now, before the store is used (default true). */
  foldOnOpen?: boolean;
  /** Before each fold: the prices file's checkpoint, so the entries a fold marks are synced. */
  beforeFold?: () => void;
}

export interface StoreRollups {
  readonly statements: RollupStatements;
  readonly directory: SeriesDirectory;
  /** Inside the batch's transaction. */
  record(sides: readonly SideSnapshot[], newSales: readonly SaleRecord[]): void;
  /** After the batch committed (folds when due). */
  committed(): void;
  rolledBack(): void;
  /** Folds what this object journaled and is not folded yet. */
  flushOwn(): Promise<void>;
  /** Folds what this object journaled that a step on the rows before `beforeMs` must see. */
  flushBefore(beforeMs: number): Promise<void>;
  /** Folds everything journaled so far. */
  flushAll(): Promise<void>;
  close(): Promise<void>;
}

export function openStoreRollups(
  db: Database.Database,
  options: StoreRollupsOptions,
): StoreRollups {
  const statements = prepareRollupStatements(db);
  const directory = new SeriesDirectory(statements);
  const journal = new JournalWriter();
  const cache = new RollupRowCache(statements);
  let mark = statements.readMark.get()!;
  const changed: CachedRow[] = [];
  const sink = rowSink(cache, changed);

  const writeChanged = () => {
    changed.sort((a, b) => a.bucket - b.bucket || a.series - b.series); // appended in key order
    for (const row of changed) {
      cache.frontier[row.tier] = Math.max(cache.frontier[row.tier], row.bucket);
      writeRow(statements.tiers[row.tier], row, row.dirty);
    }
    changed.length = 0;
    cache.clear();
  };

  /** Folds the journal entries past the mark through `upTo` in one transaction. */
  const foldSome = db.transaction((upTo: number) => {
    statements.lockHistory();
    cache.clear();
    const stored = statements.readFrontiers.get()!;
    TIERS.forEach((tier, index) => (cache.frontier[tier] = stored[index]!));
    let through = statements.readMark.get()!;
    for (let entry = statements.journalAfter.get(through); entry && entry[0] <= upTo;) {
      replayJournal(entry[1], sink);
      through = entry[0];
      if (changed.length >= ROWS_PER_WRITE) writeChanged();
      entry = statements.journalAfter.get(through);
    }
    writeChanged();
    statements.markFolded.run(through, ...TIERS.map((tier) => cache.frontier[tier]));
    return through;
  });

  const foldOnce = (upTo: number) => {
    options.beforeFold?.();
    try {
      mark = foldSome(upTo);
    } finally {
      changed.length = 0;
      cache.clear();
    }
  };

  let recorded: number | null = null;
  let recordedEarliest = 0;
  let journaledThrough = 0;
  /** The earliest time observed by what this object journaled in the current period. */
  let openEarliest = Infinity;
  /** The last entry this object committed before the current 10-minute period began. */
  let closedThrough = 0;
  let lastJournalAt = options.clock.now();
  let batchesSinceFold = 0;
  let failedAt: number | null = null;
  const periodOf = (at: number) => Math.floor(at / FOLD_POLICY.closeMs);

  const folded = () => {
    // Cleanup only: the mark already excludes these, and the next fold deletes them too.
    try {
      statements.deleteJournalThrough.run(mark);
    } catch {
      // retried by the next fold
    }
    batchesSinceFold = 0;
    if (mark >= journaledThrough) openEarliest = Infinity;
  };
  const fold = () => {
    foldOnce(Number.MAX_SAFE_INTEGER);
    folded();
  };
  const unfolded = () => journaledThrough > mark;
  /** What a fold due now folds through (0: nothing is due). */
  const dueThrough = (now: number): number => {
    if (batchesSinceFold >= FOLD_POLICY.batches) return journaledThrough;
    if (periodOf(now) > periodOf(lastJournalAt)) return journaledThrough;
    return closedThrough;
  };
  const neededBefore = (beforeMs: number): number => {
    if (periodOf(options.clock.now()) > periodOf(lastJournalAt)) return journaledThrough;
    return openEarliest < beforeMs ? journaledThrough : closedThrough;
  };
  const foldIfDue = () => {
    const now = options.clock.now();
    const upTo = dueThrough(now);
    if (upTo <= mark) return;
    if (failedAt !== null && periodOf(now) === periodOf(failedAt)) return;
    try {
      foldOnce(upTo);
      folded();
      failedAt = null;
    } catch (error) {
      failedAt = now;
      options.onFoldError(error instanceof Error ? (error.stack ?? error.message) : String(error));
    }
  };

  if (options.foldOnOpen !== false) fold();
  const timer = setInterval(foldIfDue, FOLD_POLICY.checkMs).unref();

  return {
    statements,
    directory,
    record(sides, newSales) {
      const blob = journalBatch(journal, directory, sides, newSales);
      recorded = blob && Number(statements.insertJournal.run(blob).lastInsertRowid);
      recordedEarliest = journal.earliestAt;
    },
    committed() {
      directory.commit();
      if (recorded !== null) {
        const now = options.clock.now();
        if (periodOf(now) > periodOf(lastJournalAt)) {
          closedThrough = journaledThrough;
          openEarliest = Infinity;
        }
        journaledThrough = recorded;
        openEarliest = Math.min(openEarliest, recordedEarliest);
        lastJournalAt = now;
        batchesSinceFold += 1;
      }
      recorded = null;
      foldIfDue();
    },
    rolledBack() {
      directory.discard();
      recorded = null;
    },
    async flushOwn() {
      if (unfolded()) fold();
    },
    async flushBefore(beforeMs) {
      const upTo = neededBefore(beforeMs);
      if (upTo <= mark) return;
      foldOnce(upTo);
      folded();
    },
    async flushAll() {
      fold();
    },
    async close() {
      clearInterval(timer);
      if (unfolded()) fold();
    },
  };
}
