/**
 * Maintains the history rollups inside writeBatch's transaction: every counted side snapshot
 * and every newly stored sale is merged into its market's series and the item's aggregate, at
 * 10m, 1h and 1d (src/pricing/rollups.ts). Rows come from the row cache (read and decoded once
 * while they stay hot); each changed row is written once per batch with only its changed
 * sections (the upsert keeps the others), and a row nothing changed in (a snapshot already
 * counted) is not written at all.
 */
import type { SaleRecord, SideSnapshot } from '../../domain/quote.ts';
import {
  recordSale,
  recordSide,
  sideObservation,
  type RowLookup,
  type Scope,
} from '../../pricing/rollups.ts';
import { encodeSalesTransient, encodeSideTransient, resetTransient } from '../rollup-codec.ts';
import {
  DIRTY_ASK,
  DIRTY_BID,
  DIRTY_SALES,
  type CachedRow,
  type RollupRowCache,
} from './rollup-row-cache.ts';
import type { RollupStatements } from './rollup-statements.ts';
import type { SeriesDirectory } from './series-directory.ts';

export interface RollupWriter {
  /** Call inside the batch's transaction, after its sides and sales were written. */
  record(sides: readonly SideSnapshot[], newSales: readonly SaleRecord[]): void;
}

export function createRollupWriter(
  statements: RollupStatements,
  directory: SeriesDirectory,
  cache: RollupRowCache,
): RollupWriter {
  const changed: CachedRow[] = [];
  const touched: CachedRow[] = [];

  const lookupFor = (record: SideSnapshot | SaleRecord, at: number): RowLookup => {
    const series: Record<Scope, number | null> = { market: null, aggregate: null };
    return (scope, tier) => {
      const market = scope === 'market' ? record.market : null;
      series[scope] ??= directory.ensure(record.game, record.itemId, market);
      const cached = cache.get(tier, series[scope], at);
      touched.push(cached);
      return cached.row;
    };
  };

  const markTouched = (bit: number) => {
    for (const cached of touched) {
      if (cached.dirty === 0) changed.push(cached);
      cached.dirty |= bit;
    }
    touched.length = 0;
  };

  const flush = () => {
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

  return {
    record(sides, newSales) {
      cache.begin();
      try {
        for (const side of sides) {
          const observation = sideObservation(side);
          if (!observation) continue;
          const counted = recordSide(lookupFor(side, observation.at), observation);
          if (counted) markTouched(observation.side === 'ask' ? DIRTY_ASK : DIRTY_BID);
          else touched.length = 0;
        }
        for (const sale of newSales) {
          recordSale(lookupFor(sale, sale.soldAt), sale.price, sale.quantity);
          markTouched(DIRTY_SALES);
        }
        flush();
      } catch (error) {
        cache.invalidate();
        throw error;
      } finally {
        changed.length = 0;
        touched.length = 0;
      }
    },
  };
}
