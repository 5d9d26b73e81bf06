/**
 * The folding half of the SQLite rollups. catchUp() reads the journal past the last entry it
 * saw into per-(series, 10-minute bucket) deltas (pending-rollups.ts: this is where a snapshot
 * already counted is dropped); fold() merges every delta into its 10m and 1d rows in the
 * history file (and into its 1h row only where that hour is stored: stored-hours.ts), writing
 * each changed row once, and moves the history file's fold mark to the last journal id
 * folded, in one transaction on that file. The folded journal entries are
 * deleted afterwards; a crash before that only leaves entries the mark already excludes.
 *
 * Exactly once, even with two folders on one store: a fold commits only if the mark is still
 * where this folder last left it; otherwise it throws, drops what it had pending and starts
 * over from the new mark. Stored rows, the mark and the journal past it are always the whole
 * truth, so a folder that dies loses nothing.
 */
import type Database from 'better-sqlite3';
import { TIERS } from '../../pricing/rollup-buckets.ts';
import { mergeRow, type RollupRow } from '../../pricing/rollups.ts';
import { encodeSalesTransient, encodeSideTransient, resetTransient } from '../rollup-codec.ts';
import { PendingRollups, type PendingBucket } from './pending-rollups.ts';
import { replayJournal, type JournalSink } from './rollup-journal.ts';
import {
  DIRTY_ASK,
  DIRTY_BID,
  DIRTY_SALES,
  type CachedRow,
  type RollupRowCache,
} from './rollup-row-cache.ts';
import { unpackPage } from './rollup-pages.ts';
import type { RollupStatements } from './rollup-statements.ts';
import { dropLastAt } from './stored-hours.ts';

/** When a fold is due: this long after the last one, or this much pending. */
export const FOLD_POLICY = {
  intervalMs: 10_000,
  buckets: 50_000,
  observations: 500_000,
};

export class FoldRaceError extends Error {
  override readonly name = 'FoldRaceError';
}

export interface RollupFolder {
  /**
   * Reads journal entries not seen yet into the pending deltas (reads only). True when it
   * stopped early because the pending deltas reached a size limit: fold, then call again.
   */
  catchUp(now: number): boolean;
  /** True when something is unfolded and the interval or a size limit is reached. */
  isDue(now: number): boolean;
  /** True when entries were read that are not folded yet. */
  hasUnfolded(): boolean;
  /** Folds what catchUp read; call outside any transaction. */
  fold(now: number): void;
  /** The last journal id folded into the history file. */
  foldedThrough(): number;
}

function sectionsOf(row: RollupRow): number {
  return (row.ask ? DIRTY_ASK : 0) | (row.bid ? DIRTY_BID : 0) | (row.sales ? DIRTY_SALES : 0);
}

function writeRows(statements: RollupStatements, changed: readonly CachedRow[]): void {
  for (const cached of changed) {
    const { row, dirty } = cached;
    resetTransient();
    const ask =
      dirty & DIRTY_ASK && row.ask ? encodeSideTransient('ask', row.ask, row.start) : null;
    const bid =
      dirty & DIRTY_BID && row.bid ? encodeSideTransient('bid', row.bid, row.start) : null;
    const sales = dirty & DIRTY_SALES && row.sales ? encodeSalesTransient(row.sales) : null;
    const units = sales ? row.sales!.n : null;
    const tierStatements = statements.tiers[cached.tier];
    if (cached.packed) unpackPage(tierStatements, cached.tier, cached.series, cached.bucket);
    cached.packed = false;
    tierStatements.upsertRow.run(cached.series, cached.bucket, ask, bid, sales, units);
    cached.dirty = 0;
    cached.stored = true;
  }
}

function mergeInto(cache: RollupRowCache, changed: CachedRow[], entry: PendingBucket): void {
  const sections = sectionsOf(entry.delta);
  for (const tier of TIERS) {
    const cached = cache.get(tier, entry.series, entry.delta.start);
    if (tier === '1h' && !cached.stored) continue;
    mergeRow(cached.row, entry.delta);
    if (tier !== '10m') dropLastAt(cached.row);
    if (cached.dirty === 0) changed.push(cached);
    cached.dirty |= sections;
  }
}

export function createRollupFolder(
  db: Database.Database,
  statements: RollupStatements,
  cache: RollupRowCache,
): RollupFolder {
  const pending = new PendingRollups((bucket, at) => {
    const { row } = cache.get('10m', bucket.series, at);
    bucket.storedAsk = row.ask?.lastAt ?? null;
    bucket.storedBid = row.bid?.lastAt ?? null;
  });
  let mark = statements.readMark.get()!;
  let seen = mark;
  let lastFoldAt: number | null = null;

  const sink: JournalSink = {
    side: (own, all, observation) => void pending.addSide(own, all, observation),
    sale: (own, all, price, units, at) => pending.addSale(own, all, price, units, at),
  };
  const full = () =>
    pending.size >= FOLD_POLICY.buckets || pending.observations >= FOLD_POLICY.observations;

  const loadFrontiers = () => {
    const stored = statements.readFrontiers.get()!;
    TIERS.forEach((tier, index) => (cache.frontier[tier] = stored[index]!));
  };
  loadFrontiers();

  /** The fold's rows are written; returns the frontiers they reach. */
  const foldTransaction = db.transaction((through: number): number[] => {
    if (statements.advanceMark.run(through, mark).changes !== 1) {
      throw new FoldRaceError('another folder moved the fold mark; starting over from it');
    }
    loadFrontiers();
    cache.begin();
    const changed: CachedRow[] = [];
    for (const entry of pending.values()) mergeInto(cache, changed, entry);
    writeRows(statements, changed);
    const reached = TIERS.map((tier) => cache.frontier[tier]);
    for (const row of changed) {
      const index = TIERS.indexOf(row.tier);
      if (row.bucket > reached[index]!) reached[index] = row.bucket;
    }
    statements.foldedBuckets.run(...reached);
    return reached;
  });

  const startOver = () => {
    pending.clear();
    cache.invalidate();
    mark = statements.readMark.get()!;
    seen = mark;
    loadFrontiers();
  };

  return {
    catchUp(now) {
      cache.begin();
      for (const [id, blob] of statements.journalAfter.iterate(seen)) {
        replayJournal(blob, sink);
        seen = id;
        lastFoldAt ??= now;
        if (full()) return true;
      }
      return false;
    },
    isDue(now) {
      if (seen === mark) return false;
      return full() || now - (lastFoldAt ?? now) >= FOLD_POLICY.intervalMs;
    },
    hasUnfolded() {
      return seen !== mark;
    },
    fold(now) {
      if (seen !== mark) {
        let reached: number[];
        try {
          reached = foldTransaction(seen);
        } catch (error) {
          startOver();
          throw error;
        }
        cache.committed();
        TIERS.forEach((tier, index) => (cache.frontier[tier] = reached[index]!));
        mark = seen;
        pending.clear();
        // Cleanup only: the mark already excludes these, and the next fold deletes them too.
        try {
          statements.deleteJournalThrough.run(mark);
        } catch {
          // retried by the next fold
        }
      }
      lastFoldAt = now;
    },
    foldedThrough() {
      return mark;
    },
  };
}

/** Attempts after another folder moved the mark (each starts over from the new mark). */
const RACE_ATTEMPTS = 3;

/**
 * Catches up with the journal and folds: all of it when `force`, else only when due. Losing
 * a race to another folder costs this one its pending work, not the caller's call.
 */
export function drainJournal(folder: RollupFolder, now: number, force: boolean): void {
  for (let attempt = 1; ; attempt += 1) {
    try {
      while (folder.catchUp(now)) folder.fold(now);
      if (force ? folder.hasUnfolded() : folder.isDue(now)) folder.fold(now);
      return;
    } catch (error) {
      if (!(error instanceof FoldRaceError) || attempt >= RACE_ATTEMPTS) throw error;
    }
  }
}
