/**
 * Maintains the history rollups of the SQLite store. writeBatch's transaction journals every
 * counted side snapshot and every newly stored sale (rollup-journal.ts) and adds it to the
 * pending deltas in memory (pending-rollups.ts); a fold merges the deltas into the 10m, 1h
 * and 1d rows and empties the journal in one transaction. Folds run when due (FOLD_POLICY)
 * inside a batch, on demand before reads and retention, and on close. Stored rows plus the
 * journal are always the whole truth, so a crash or a rolled-back batch loses nothing:
 * recover() rebuilds the pending deltas from the journal.
 */
import type { SaleRecord, SideSnapshot } from '../../domain/quote.ts';
import { TIERS } from '../../pricing/rollup-buckets.ts';
import {
  entersAggregate,
  mergeRow,
  sideObservation,
  type RollupRow,
} from '../../pricing/rollups.ts';
import { encodeSalesTransient, encodeSideTransient, resetTransient } from '../rollup-codec.ts';
import { PendingRollups, type PendingBucket } from './pending-rollups.ts';
import { JournalWriter, replayJournal, type JournalSink } from './rollup-journal.ts';
import {
  DIRTY_ASK,
  DIRTY_BID,
  DIRTY_SALES,
  type CachedRow,
  type RollupRowCache,
} from './rollup-row-cache.ts';
import type { RollupStatements } from './rollup-statements.ts';
import type { SeriesDirectory } from './series-directory.ts';

/** When a batch also folds: this long after the last fold, or this much pending. */
/** The aggregate series slot of an observation that stays out of the aggregate. */
const NO_SERIES = 0;

export const FOLD_POLICY = { intervalMs: 10_000, buckets: 50_000, observations: 500_000 };

export interface RollupWriter {
  /** Call inside the batch's transaction, after its sides and sales were written. */
  record(sides: readonly SideSnapshot[], newSales: readonly SaleRecord[], now: number): void;
  /** Call inside a write transaction: merges every pending delta into the stored rows. */
  fold(now: number): void;
  /** True when a fold is due at `now` (something pending, and the interval or a limit hit). */
  isDue(now: number): boolean;
  hasPending(): boolean;
  /** Rebuilds the pending deltas from the journal (after opening, or a rolled-back batch). */
  recover(): void;
}

function sectionsOf(row: RollupRow): number {
  return (row.ask ? DIRTY_ASK : 0) | (row.bid ? DIRTY_BID : 0) | (row.sales ? DIRTY_SALES : 0);
}

/** Hour and day rows never carry lastAt (only per-market 10-minute buckets dedupe). */
function dropLastAt(row: RollupRow): void {
  if (row.ask) row.ask.lastAt = null;
  if (row.bid) row.bid.lastAt = null;
}

export function createRollupWriter(
  statements: RollupStatements,
  directory: SeriesDirectory,
  cache: RollupRowCache,
): RollupWriter {
  const pending = new PendingRollups((bucket, at) => {
    const { row } = cache.get('10m', bucket.series, at);
    bucket.storedAsk = row.ask?.lastAt ?? null;
    bucket.storedBid = row.bid?.lastAt ?? null;
  });
  const journal = new JournalWriter();
  let lastFoldAt: number | null = null;

  const write = (changed: readonly CachedRow[]) => {
    for (const cached of changed) {
      const { row, dirty } = cached;
      resetTransient();
      const ask =
        dirty & DIRTY_ASK && row.ask ? encodeSideTransient('ask', row.ask, row.start) : null;
      const bid =
        dirty & DIRTY_BID && row.bid ? encodeSideTransient('bid', row.bid, row.start) : null;
      const sales = dirty & DIRTY_SALES && row.sales ? encodeSalesTransient(row.sales) : null;
      const units = sales ? row.sales!.n : null;
      statements.tiers[cached.tier].upsertRow.run(
        cached.series,
        cached.bucket,
        ask,
        bid,
        sales,
        units,
      );
      cached.dirty = 0;
    }
  };

  const mergeInto = (changed: CachedRow[], entry: PendingBucket) => {
    const sections = sectionsOf(entry.delta);
    for (const tier of TIERS) {
      const cached = cache.get(tier, entry.series, entry.delta.start);
      mergeRow(cached.row, entry.delta);
      if (tier !== '10m') dropLastAt(cached.row);
      if (cached.dirty === 0) changed.push(cached);
      cached.dirty |= sections;
    }
  };

  const replaySink: JournalSink = {
    side: (own, all, observation) => void pending.addSide(own, all, observation),
    sale: (own, all, price, units, at) => pending.addSale(own, all, price, units, at),
  };

  return {
    record(sides, newSales, now) {
      cache.begin();
      lastFoldAt ??= now;
      for (const side of sides) {
        const observation = sideObservation(side);
        if (!observation) continue;
        const own = directory.ensure(side.game, side.itemId, side.market);
        const all = entersAggregate(observation)
          ? directory.ensure(side.game, side.itemId, null)
          : NO_SERIES;
        if (pending.addSide(own, all, observation)) journal.side(own, all, observation);
      }
      for (const sale of newSales) {
        const own = directory.ensure(sale.game, sale.itemId, sale.market);
        const all = directory.ensure(sale.game, sale.itemId, null);
        pending.addSale(own, all, sale.price, sale.quantity, sale.soldAt);
        journal.sale(own, all, sale.price, sale.quantity, sale.soldAt);
      }
      if (!journal.isEmpty) statements.insertJournal.run(journal.take());
      if (this.isDue(now)) this.fold(now);
    },
    fold(now) {
      cache.begin();
      const changed: CachedRow[] = [];
      for (const entry of pending.values()) mergeInto(changed, entry);
      write(changed);
      statements.clearJournal.run();
      pending.clear();
      lastFoldAt = now;
    },
    isDue(now) {
      if (pending.size === 0) return false;
      return (
        pending.size >= FOLD_POLICY.buckets ||
        pending.observations >= FOLD_POLICY.observations ||
        now - (lastFoldAt ?? now) >= FOLD_POLICY.intervalMs
      );
    },
    hasPending() {
      return pending.size > 0;
    },
    recover() {
      pending.clear();
      journal.take();
      for (const blob of statements.selectJournal.all()) replayJournal(blob, replaySink);
    },
  };
}
