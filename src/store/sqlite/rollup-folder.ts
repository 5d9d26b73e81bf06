/**
 * The folding half of the SQLite rollups: one fold is one transaction that takes the history
 * file's write lock, replays the journal past the history file's fold mark straight into the
 * decoded rows it touches (rollup-row-cache.ts: the 10m and 1d rows, and the 1h row only where
 * that hour is stored, stored-hours.ts), writes each changed row once, and moves the mark to
 * the last journal id folded. A snapshot already counted is dropped on the way (recordSide:
 * its 10-minute row's lastAt). Rows and mark commit together, so any number of folders on one
 * store fold every entry exactly once, and a folder that dies loses nothing. The folded
 * journal entries are deleted afterwards; a crash before that leaves entries the mark excludes.
 */
import type Database from 'better-sqlite3';
import { TIERS, type Tier } from '../../pricing/rollup-buckets.ts';
import { emptyRow, recordSale, recordSide, type RowLookup } from '../../pricing/rollups.ts';
import { encodeSalesTransient, encodeSideTransient, resetTransient } from '../rollup-codec.ts';
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

/** When a fold is due: this long after the last one, or this many batches journaled since. */
export const FOLD_POLICY = { intervalMs: 10_000, batches: 500 };

/** Changed rows a transaction folds at most; the rest of the journal goes to the next one. */
const ROWS_PER_FOLD = 50_000;

function writeRows(statements: RollupStatements, changed: readonly CachedRow[]): void {
  for (const cached of changed) {
    const { row, dirty } = cached;
    resetTransient();
    const ask =
      dirty & DIRTY_ASK && row.ask ? encodeSideTransient('ask', row.ask, row.start) : null;
    const bid =
      dirty & DIRTY_BID && row.bid ? encodeSideTransient('bid', row.bid, row.start) : null;
    const sales = dirty & DIRTY_SALES && row.sales ? encodeSalesTransient(row.sales) : null;
    const tierStatements = statements.tiers[cached.tier];
    if (cached.packed) unpackPage(tierStatements, cached.tier, cached.series, cached.bucket);
    cached.packed = false;
    const units = sales ? row.sales!.n : null;
    tierStatements.upsertRow.run(cached.series, cached.bucket, ask, bid, sales, units);
    cached.dirty = 0;
    cached.stored = true;
  }
}

/** Hands recordSide / recordSale the cached rows of an entry's two series; marks what changed. */
function rowSink(cache: RollupRowCache, changed: CachedRow[]): JournalSink {
  const touched: CachedRow[] = [];
  /** Where an observation of an hour that is not stored goes (the hour is derived). */
  const discarded = emptyRow(0);
  let own = 0;
  let all = 0;
  let at = 0;
  const rows: RowLookup = (scope, tier: Tier) => {
    const series = scope === 'market' ? own : all;
    const cached = tier === '1h' && !cache.mayHold(tier, at) ? null : cache.get(tier, series, at);
    if (tier === '1h' && !cached?.stored) {
      discarded.ask = discarded.bid = discarded.sales = null;
      return discarded;
    }
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
      if (recordSide(rows, obs)) markTouched(obs.side === 'ask' ? DIRTY_ASK : DIRTY_BID);
    },
    sale(marketSeries, aggregateSeries, price, units, time) {
      entry(marketSeries, aggregateSeries, time);
      recordSale(rows, price, units);
      markTouched(DIRTY_SALES);
    },
  };
}

export interface RollupFolder {
  /** Folds the whole journal past the mark (one transaction per ROWS_PER_FOLD changed rows). */
  foldAll(): void;
  /** The last journal id folded into the history file, as this folder last saw it. */
  foldedThrough(): number;
}

export function createRollupFolder(
  db: Database.Database,
  statements: RollupStatements,
  cache: RollupRowCache,
): RollupFolder {
  let mark = statements.readMark.get()!;
  const changed: CachedRow[] = [];
  const sink = rowSink(cache, changed);

  /** Folds journal entries past the mark; `more` when it stopped at the row limit. */
  const foldSome = db.transaction(() => {
    statements.lockHistory.run();
    cache.begin();
    const stored = statements.readFrontiers.get()!;
    TIERS.forEach((tier, index) => (cache.frontier[tier] = stored[index]!));
    let through = statements.readMark.get()!;
    let more = false;
    for (const [id, blob] of statements.journalAfter.iterate(through)) {
      replayJournal(blob, sink);
      through = id;
      if ((more = changed.length >= ROWS_PER_FOLD)) break;
    }
    for (const row of changed) {
      cache.frontier[row.tier] = Math.max(cache.frontier[row.tier], row.bucket);
    }
    writeRows(statements, changed);
    statements.markFolded.run(through, ...TIERS.map((tier) => cache.frontier[tier]));
    return { through, more };
  });

  const foldOnce = () => {
    try {
      const { through, more } = foldSome();
      mark = through;
      cache.committed();
      return more;
    } catch (error) {
      cache.invalidate();
      throw error;
    } finally {
      changed.length = 0;
    }
  };

  return {
    foldAll() {
      while (foldOnce());
      // Cleanup only: the mark already excludes these, and the next fold deletes them too.
      try {
        statements.deleteJournalThrough.run(mark);
      } catch {
        // retried by the next fold
      }
    },
    foldedThrough: () => mark,
  };
}
