/**
 * The rollup side of one SQLite store object: it journals each batch inside the batch's
 * transaction (rollup-recorder.ts) and has the journal folded (rollup-folder.ts), either on
 * this connection (inline: after a batch that finds a fold due, on a one-second idle check,
 * and when asked) or by a fold thread of its own (fold-thread-host.ts). It remembers the last
 * journal id it wrote, so reads and retention steps fold first only when this object has
 * journaled something not yet folded; a store that only reads never folds (except, inline,
 * once on open: entries a dead process left behind).
 */
import type Database from 'better-sqlite3';
import type { Clock } from '../../domain/clock.ts';
import type { SaleRecord, SideSnapshot } from '../../domain/quote.ts';
import { startFoldThread, type FoldThread } from './fold-thread-host.ts';
import { createRollupFolder, drainJournal, type RollupFolder } from './rollup-folder.ts';
import { createRollupRecorder } from './rollup-recorder.ts';
import { RollupRowCache } from './rollup-row-cache.ts';
import { prepareRollupStatements, type RollupStatements } from './rollup-statements.ts';
import { SeriesDirectory } from './series-directory.ts';

/** How often an inline store checks whether its journal is due for a fold. */
const FOLD_CHECK_MS = 1000;

export interface StoreRollupsOptions {
  path: string;
  clock: Clock;
  foldOn: 'inline' | 'thread';
  onFoldError: (message: string) => void;
  /** Inline: fold what is in the journal now, before the store is used (default true). */
  foldOnOpen?: boolean;
}

export interface StoreRollups {
  readonly statements: RollupStatements;
  readonly directory: SeriesDirectory;
  /** Inside the batch's transaction. */
  record(sides: readonly SideSnapshot[], newSales: readonly SaleRecord[]): void;
  /** After the batch committed (inline: folds when due; a failed fold is retried later). */
  committed(): void;
  rolledBack(): void;
  /** Folds what this object journaled and is not folded yet. */
  flushOwn(): Promise<void>;
  /** Folds everything journaled so far. */
  flushAll(): Promise<void>;
  /** This connection deleted or rewrote rollup rows (an upkeep step). */
  rowsRewritten(): void;
  close(): Promise<void>;
}

export async function openStoreRollups(
  db: Database.Database,
  options: StoreRollupsOptions,
): Promise<StoreRollups> {
  const statements = prepareRollupStatements(db);
  const directory = new SeriesDirectory(statements);
  const recorder = createRollupRecorder(statements, directory);
  const threaded = options.foldOn === 'thread' && options.path !== ':memory:';
  const cache = threaded ? null : new RollupRowCache(db, statements);
  const folder: RollupFolder | null = cache && createRollupFolder(db, statements, cache);
  const thread: FoldThread | null = threaded
    ? await startFoldThread({ path: options.path }, options.onFoldError)
    : null;
  let recorded: number | null = null;
  let journaledThrough = 0;
  /** The last journal id the fold thread reported folded (inline, the folder knows). */
  let threadFoldedThrough = 0;
  const foldedThrough = () => folder?.foldedThrough() ?? threadFoldedThrough;

  const drain = (force: boolean) => drainJournal(folder!, options.clock.now(), force);
  /**
   * Inline, the row cache is emptied afterwards: a store that flushes is done writing for now
   * (an import, the first-start backfill), and on the HTTP thread the cache would otherwise
   * keep its decoded rows alive for good after the backfill (87 MB of heap, measured after
   * folding six fetch rounds of 2,000 items).
   */
  const flushAll = async () => {
    if (thread) threadFoldedThrough = await thread.flush();
    else {
      drain(true);
      cache!.invalidate();
    }
  };
  const unfolded = () => journaledThrough > foldedThrough() || folder?.hasUnfolded() === true;
  const foldIfDue = () => {
    if (!folder || !unfolded()) return;
    try {
      drain(false);
    } catch {
      // the entries stay in the journal: the next due check, flush or read folds them
    }
  };

  if (folder && options.foldOnOpen !== false) drain(true);
  const timer = folder ? setInterval(foldIfDue, FOLD_CHECK_MS).unref() : null;

  return {
    statements,
    directory,
    record(sides, newSales) {
      recorded = recorder.record(sides, newSales);
    },
    committed() {
      directory.commit();
      if (recorded !== null) journaledThrough = recorded;
      recorded = null;
      foldIfDue();
    },
    rolledBack() {
      directory.discard();
      recorded = null;
    },
    async flushOwn() {
      if (unfolded()) await flushAll();
    },
    flushAll,
    rowsRewritten() {
      cache?.invalidate();
    },
    async close() {
      if (timer) clearInterval(timer);
      if (thread) await thread.stop();
      else if (unfolded()) drain(true);
    },
  };
}
