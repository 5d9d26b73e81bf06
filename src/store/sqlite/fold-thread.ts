/**
 * The fold thread: a connection of its own on a store's files that folds the rollup journal
 * (rollup-folder.ts) beside the thread that ingests. It polls the journal every FOLD_POLL_MS
 * and folds when FOLD_POLICY says so, folds everything on a flush request, and once more
 * before it stops. Folds take the history file's write lock only, so they never hold up the
 * batches committing to the prices file. The fold interval runs on this thread's wall clock
 * (a store's injected clock cannot cross threads); it only paces the work, no rule reads it.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { openHistory, openPrices } from './connection.ts';
import type { FoldHostMessage, FoldThreadConfig, FoldThreadMessage } from './fold-messages.ts';
import { createRollupFolder, drainJournal } from './rollup-folder.ts';
import { RollupRowCache } from './rollup-row-cache.ts';
import { prepareRollupStatements } from './rollup-statements.ts';

const FOLD_POLL_MS = 200;

function post(message: FoldThreadMessage): void {
  parentPort!.postMessage(message);
}

function describe(error: unknown): string {
  return error instanceof Error ? (error.stack ?? error.message) : String(error);
}

function run(config: FoldThreadConfig): void {
  const db = openPrices(config.path);
  openHistory(db, config.path);
  const statements = prepareRollupStatements(db);
  const folder = createRollupFolder(db, statements, new RollupRowCache(db, statements));
  const drain = (force: boolean) => drainJournal(folder, Date.now(), force);
  // Ready first: the store that started this thread need not wait for what a dead process
  // left in the journal (a flush sent meanwhile is answered after this fold).
  post({ type: 'ready' });
  const drainReporting = (force: boolean) => {
    try {
      drain(force);
    } catch (error) {
      post({ type: 'error', message: describe(error) });
    }
  };
  drainReporting(true);
  const timer = setInterval(() => drainReporting(false), FOLD_POLL_MS);
  parentPort!.on('message', (message: FoldHostMessage) => {
    if (message.type === 'flush') {
      let error: string | null = null;
      try {
        drain(true);
      } catch (failure) {
        error = describe(failure);
      }
      post({ type: 'flushed', id: message.id, through: folder.foldedThrough(), error });
      return;
    }
    clearInterval(timer);
    try {
      drain(true);
    } catch (error) {
      post({ type: 'error', message: describe(error) });
    } finally {
      db.close();
      post({ type: 'stopped' });
    }
  });
}

try {
  run(workerData as FoldThreadConfig);
} catch (error) {
  post({ type: 'failed', message: describe(error) });
}
