/**
 * Selling `units` of one item into buy orders now: every level of every given bid side re-priced
 * at what the seller nets there (the fee model's `sellerNets`), merged best first, and walked
 * level by level, each level giving at most its own quantity, so no order is counted twice. A
 * `cap` (the item's lowest ask) bounds each unit: a bid above a cheaper listing is filled by
 * that listing before a seller can reach it.
 */
import type { MarketId } from '../domain/markets.ts';
import type { Cents } from '../domain/money.ts';
import type { SideSnapshot } from '../domain/quote.ts';
import { feesFor, type FeeModel } from '../markets/fees.ts';
import { sellerNets } from '../pricing/execution.ts';

export interface NetLevel {
  market: MarketId;
  net: Cents;
  quantity: number;
}

export interface LadderWalk {
  cents: Cents;
  filledUnits: number;
}

/** Levels with a positive quantity and net, highest net first (market id breaks ties). */
export function netLadder(bids: readonly SideSnapshot[], model: FeeModel): NetLevel[] {
  const levels: NetLevel[] = [];
  for (const side of bids) {
    const fees = feesFor(model, side.market);
    for (const level of side.levels) {
      const net = sellerNets(level.price, fees);
      if (net > 0 && level.quantity > 0) {
        levels.push({ market: side.market, net, quantity: Math.floor(level.quantity) });
      }
    }
  }
  return levels.sort((a, b) => b.net - a.net || byId(a.market, b.market));
}

/** Code-point order of market ids, for ties. */
export const byId = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

export function walkLadder(
  levels: readonly NetLevel[],
  units: number,
  cap: Cents | null,
): LadderWalk {
  let remaining = units;
  let cents = 0;
  for (const level of levels) {
    if (remaining <= 0) break;
    const taken = Math.min(remaining, level.quantity);
    cents += taken * (cap === null ? level.net : Math.min(level.net, cap));
    remaining -= taken;
  }
  return { cents, filledUnits: units - remaining };
}
