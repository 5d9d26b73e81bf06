/**
 * The rollup side of one SQLite store object: it journals each batch inside the batch's
 * transaction (rollup-recorder.ts) and folds the journal on its own connection
 * (rollup-folder.ts) when FOLD_POLICY says so: checked after each batch and once a second. It
 * remembers the last journal id it wrote, so reads and retention steps fold first only when
 * this object journaled something not folded yet; a store that only reads never folds, except
 * on open (by default): what a process that died left in the journal.
 */
import type Database from 'better-sqlite3';
import type { Clock } from '../../domain/clock.ts';
import type { SaleRecord, SideSnapshot } from '../../domain/quote.ts';
import { createRollupFolder, FOLD_POLICY } from './rollup-folder.ts';
import { createRollupRecorder } from './rollup-recorder.ts';
import { RollupRowCache } from './rollup-row-cache.ts';
import { prepareRollupStatements, type RollupStatements } from './rollup-statements.ts';
import { SeriesDirectory } from './series-directory.ts';

/** How often a store checks whether its journal is due for a fold. */
const FOLD_CHECK_MS = 1000;

export interface StoreRollupsOptions {
  clock: Clock;
  /** Errors of the folds the store runs by itself (the entries stay for the next one). */
  onFoldError: (message: string) => void;
  /** Fold what is in the journal now, before the store is used (default true). */
  foldOnOpen?: boolean;
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
  /** Folds everything journaled so far, then lets go of the decoded rows it kept. */
  flushAll(): Promise<void>;
  /** This connection deleted or rewrote rollup rows (an upkeep step). */
  rowsRewritten(): void;
  close(): Promise<void>;
}

export function openStoreRollups(
  db: Database.Database,
  options: StoreRollupsOptions,
): StoreRollups {
  const statements = prepareRollupStatements(db);
  const directory = new SeriesDirectory(statements);
  const recorder = createRollupRecorder(statements, directory);
  const cache = new RollupRowCache(db, statements);
  const folder = createRollupFolder(db, statements, cache);
  let recorded: number | null = null;
  let journaledThrough = 0;
  let batchesSinceFold = 0;
  let lastFoldAt = options.clock.now();

  const fold = () => {
    folder.foldAll();
    lastFoldAt = options.clock.now();
    batchesSinceFold = 0;
  };
  const unfolded = () => journaledThrough > folder.foldedThrough();
  const foldIfDue = () => {
    const waited = options.clock.now() - lastFoldAt;
    if (!unfolded() || (waited < FOLD_POLICY.intervalMs && batchesSinceFold < FOLD_POLICY.batches))
      return;
    try {
      fold();
    } catch (error) {
      options.onFoldError(error instanceof Error ? (error.stack ?? error.message) : String(error));
    }
  };

  if (options.foldOnOpen !== false) fold();
  const timer = setInterval(foldIfDue, FOLD_CHECK_MS).unref();

  return {
    statements,
    directory,
    record(sides, newSales) {
      recorded = recorder.record(sides, newSales);
    },
    committed() {
      directory.commit();
      if (recorded !== null) {
        journaledThrough = recorded;
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
    /**
     * The rows are let go because a store that flushes is done writing for now (an import,
     * a backfill): kept, they would hold their heap for good (87 MB measured after folding six
     * fetch rounds of 2,000 items).
     */
    async flushAll() {
      fold();
      cache.invalidate();
    },
    rowsRewritten() {
      cache.invalidate();
    },
    async close() {
      clearInterval(timer);
      if (unfolded()) fold();
    },
  };
}
