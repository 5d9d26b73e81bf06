/**
 * The ingest half of the SQLite rollups: inside a batch's transaction, every side snapshot
 * that observes something and every newly stored sale go to the rollup journal
 * (rollup-journal.ts), one blob per batch, under their series ids. Nothing else: deciding what
 * counts (a snapshot counts once) and merging into the rollup rows is the folder's work
 * (rollup-folder.ts), which may run on another thread.
 */
import type { SaleRecord, SideSnapshot } from '../../domain/quote.ts';
import { entersAggregate, sideObservation } from '../../pricing/rollups.ts';
import { JournalWriter } from './rollup-journal.ts';
import type { RollupStatements } from './rollup-statements.ts';
import type { SeriesDirectory } from './series-directory.ts';

/** The aggregate series slot of an observation that stays out of the aggregate. */
const NO_SERIES = 0;

export interface RollupRecorder {
  /** Journals a batch; returns the journal id it took, or null when it observed nothing. */
  record(sides: readonly SideSnapshot[], newSales: readonly SaleRecord[]): number | null;
}

export function createRollupRecorder(
  statements: RollupStatements,
  directory: SeriesDirectory,
): RollupRecorder {
  const journal = new JournalWriter();
  function collect(sides: readonly SideSnapshot[], newSales: readonly SaleRecord[]): void {
    for (const side of sides) {
      const observation = sideObservation(side);
      if (!observation) continue;
      const own = directory.ensure(side.game, side.itemId, side.market);
      const all = entersAggregate(observation)
        ? directory.ensure(side.game, side.itemId, null)
        : NO_SERIES;
      journal.side(own, all, observation);
    }
    for (const sale of newSales) {
      const own = directory.ensure(sale.game, sale.itemId, sale.market);
      const all = directory.ensure(sale.game, sale.itemId, null);
      journal.sale(own, all, sale.price, sale.quantity, sale.soldAt);
    }
  }

  return {
    record(sides, newSales) {
      try {
        collect(sides, newSales);
      } catch (error) {
        journal.clear();
        throw error;
      }
      if (journal.isEmpty) return null;
      return Number(statements.insertJournal.run(journal.take()).lastInsertRowid);
    },
  };
}
