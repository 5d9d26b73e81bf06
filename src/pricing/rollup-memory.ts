/**
 * Rollups of a stream of batches held in memory (pure, no I/O): the reference the history
 * contract and the property tests compare stores with. Same rules as a store: every counted
 * side snapshot and every sale not seen before enters its market's series and the aggregate.
 */
import type { Game } from '../domain/games.ts';
import type { MarketId } from '../domain/markets.ts';
import type { SaleRecord, SideSnapshot } from '../domain/quote.ts';
import { bucketStart, TIER_MS, type Tier } from './rollup-buckets.ts';
import {
  emptyRow,
  recordSale,
  recordSide,
  sideObservation,
  type RollupRow,
  type RowLookup,
} from './rollups.ts';

export interface MemorySeriesKey {
  game: Game;
  itemId: string;
  market: MarketId | null;
}

function seriesKey(key: MemorySeriesKey): string {
  return `${key.game}\u0000${key.itemId}\u0000${key.market ?? ''}`;
}

function saleKey(sale: SaleRecord): string {
  return [sale.game, sale.itemId, sale.soldAt, sale.market, sale.price, sale.quantity].join('|');
}

export class MemoryRollups {
  private readonly rows = new Map<string, RollupRow>();
  private readonly salesSeen = new Set<string>();

  record(sides: readonly SideSnapshot[], sales: readonly SaleRecord[] = []): void {
    for (const side of sides) {
      const observation = sideObservation(side);
      if (observation) recordSide(this.lookup(side, observation.at), observation);
    }
    for (const sale of sales) {
      const key = saleKey(sale);
      if (this.salesSeen.has(key)) continue;
      this.salesSeen.add(key);
      recordSale(this.lookup(sale, sale.soldAt), sale.price, sale.quantity);
    }
  }

  /** Buckets with start in [fromMs, toMs), oldest first (copies). */
  read(key: MemorySeriesKey, tier: Tier, fromMs: number, toMs: number): RollupRow[] {
    const prefix = `${tier}\u0000${seriesKey(key)}\u0000`;
    const out: RollupRow[] = [];
    for (const [name, row] of this.rows) {
      if (name.startsWith(prefix) && row.start >= fromMs && row.start < toMs) {
        out.push(structuredClone(row));
      }
    }
    return out.sort((a, b) => a.start - b.start);
  }

  private lookup(record: SideSnapshot | SaleRecord, at: number): RowLookup {
    return (scope, tier) => {
      const market = scope === 'market' ? record.market : null;
      const start = bucketStart(at, tier);
      const name = `${tier}\u0000${seriesKey({ ...record, market })}\u0000${start / TIER_MS[tier]}`;
      let row = this.rows.get(name);
      if (!row) this.rows.set(name, (row = emptyRow(start)));
      return row;
    };
  }
}
