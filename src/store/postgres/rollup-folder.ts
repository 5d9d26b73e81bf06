/**
 * When a PostgreSQL store folds the rollup journal (rollup-fold.ts does the folding).
 *
 * A store that journals folds, on a pool connection of its own and without holding up its
 * batches, the journal rows whose buckets all closed: once per 10-minute period, checked after
 * each batch and once a second, so each 10-minute row is written once, complete, and each hour
 * and day row once per 10 minutes. Several ingest processes may fold: the fold lock lets one
 * through and the others find the work done. A store that journaled many entries since its
 * last fold (a backfill, an import) folds what closed before its next batch returns, so the
 * journal stays short. Before a read it folds everything when it journaled something not
 * folded yet, before a retention step the rows that step must see, and on close what closed
 * (an import's rows). A store that only reads never folds: its history reads lag to the bucket
 * close plus the next fold.
 */
import type { Clock } from '../../domain/clock.ts';
import { TIER_MS } from '../../pricing/rollup-buckets.ts';
import { inTransaction, type Pool } from './driver.ts';
import { foldStep, type FoldScope } from './rollup-fold.ts';

export const FOLD_POLICY = { closeMs: TIER_MS['10m'], entries: 200_000, checkMs: 1000 };

const EVERYTHING: FoldScope = {
  closedBy: Number.MAX_SAFE_INTEGER,
  before: Number.MAX_SAFE_INTEGER,
};

export interface RollupFolderOptions {
  pool: Pool;
  clock: Clock;
  /** Errors of the folds the store runs by itself (the journal keeps the rows for the next). */
  onFoldError?: (message: string) => void;
}

export interface RollupFolder {
  /** After a batch that journaled `entries` committed; resolves once a fold it owes is done. */
  journaled(entries: number): Promise<void>;
  /** Before a read: folds everything when this store journaled something not folded yet. */
  settleOwn(): Promise<void>;
  /** Before a retention step below `beforeMs`: folds the rows with an entry before it. */
  settleBefore(beforeMs: number): Promise<void>;
  /** Folds everything journaled so far, by any process. */
  flush(): Promise<void>;
  close(): Promise<void>;
}

/** Folds `scope` step by step; false when another fold held the lock (with `wait` false). */
async function foldAll(pool: Pool, scope: FoldScope, wait: boolean): Promise<boolean> {
  for (;;) {
    const folded = await inTransaction(pool, (client) => foldStep(client, scope, wait));
    if (folded === null) return false;
    if (folded === 0) return true;
  }
}

export function createRollupFolder(options: RollupFolderOptions): RollupFolder {
  const { pool, clock } = options;
  const periodOf = (at: number) => Math.floor(at / FOLD_POLICY.closeMs);
  const report = (error: unknown) =>
    options.onFoldError?.(error instanceof Error ? (error.stack ?? error.message) : String(error));
  let ownPending = false;
  let entriesSinceFold = 0;
  let foldedPeriod = periodOf(clock.now());
  let running: Promise<void> | null = null;
  let timer: NodeJS.Timeout | null = null;
  let closed = false;

  /** Starts the fold of what closed when one is due; resolves when it is done. */
  const foldIfDue = (): Promise<void> => {
    if (running !== null) return running;
    const period = periodOf(clock.now());
    if (closed || (period <= foldedPeriod && entriesSinceFold < FOLD_POLICY.entries)) {
      return Promise.resolve();
    }
    entriesSinceFold = 0;
    const scope = { closedBy: period * FOLD_POLICY.closeMs, before: Number.MIN_SAFE_INTEGER };
    const fold = foldAll(pool, scope, false)
      .then(() => undefined, report)
      .finally(() => {
        foldedPeriod = Math.max(foldedPeriod, period);
        running = null;
      });
    running = fold;
    return fold;
  };

  const settle = async (scope: FoldScope) => {
    await running;
    await foldAll(pool, scope, true);
  };

  return {
    async journaled(entries) {
      ownPending = true;
      entriesSinceFold += entries;
      timer ??= setInterval(() => void foldIfDue(), FOLD_POLICY.checkMs).unref();
      const owed = entriesSinceFold >= FOLD_POLICY.entries;
      const fold = foldIfDue();
      if (owed) await fold;
    },
    async settleOwn() {
      if (!ownPending) return;
      ownPending = false;
      try {
        await settle(EVERYTHING);
      } catch (error) {
        ownPending = true;
        throw error;
      }
    },
    async settleBefore(beforeMs) {
      await settle({ closedBy: Number.MIN_SAFE_INTEGER, before: beforeMs });
    },
    async flush() {
      ownPending = false;
      await settle(EVERYTHING);
    },
    async close() {
      closed = true;
      if (timer !== null) clearInterval(timer);
      await running;
      if (!ownPending) return;
      const closedBy = periodOf(clock.now()) * FOLD_POLICY.closeMs;
      await foldAll(pool, { closedBy, before: Number.MIN_SAFE_INTEGER }, false).catch(report);
    },
  };
}
