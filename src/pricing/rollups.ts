/**
 * Rollup partial aggregates (pure, no I/O): what one bucket of one series holds, how an
 * observation enters it, and how buckets merge (an hour is the merge of its six 10-minute
 * buckets, a day the merge of its 24 hours: sums and counts add, min/max combine, sketches add).
 *
 * What counts as an observation:
 * - Book: one market's fetched snapshot of one side of one item with at least one level. It
 *   observes the side's best price (lowest ask / highest bid), its quoteSize (listings behind
 *   the asks, orders behind the bids) and, for bids, its totalQuantity. Empty sides observe
 *   nothing. A snapshot counts once: one whose fetchedAt is not after the latest already counted
 *   in its market's 10-minute bucket is skipped in every tier (so re-imports change nothing).
 * - Sale: its price, once per unit sold (a sale of quantity 3 counts 3).
 * Series: one per (item, market) over that market's own quotes, and one cross-market aggregate
 * per item. The aggregate's bid side takes cash-executable markets only (the best-bid rule).
 * Each side keeps a tally per contributing market (observations, summed sizes and quantities,
 * best price seen) so aggregate counts and the aggregate best bid stay exact after merging.
 */
import { isCashExecutable, MARKET_IDS, type MarketId } from '../domain/markets.ts';
import type { Cents } from '../domain/money.ts';
import type { Side } from '../domain/observation.ts';
import type { SideSnapshot } from '../domain/quote.ts';
import { quoteSize } from './book-view.ts';
import { TIERS, type Tier } from './rollup-buckets.ts';
import { sketchAdd, sketchCopy, sketchMerge, type Sketch } from './rollup-sketch.ts';

export interface PriceTally {
  /** Observations (sales: units). */
  n: number;
  sum: number;
  min: Cents;
  max: Cents;
  sketch: Sketch;
}

export interface MarketTally {
  market: MarketId;
  n: number;
  /** Sum of observed quoteSizes (listings for asks, orders for bids). */
  size: number;
  /** Bids: sum of observed totalQuantity (0 for asks). */
  quantity: number;
  /** Bids: the highest bid seen, a candidate for the aggregate best bid (0 for asks). */
  top: Cents;
}

export interface SidePartial {
  prices: PriceTally;
  /** One tally per contributing market, in MARKET_IDS order. */
  markets: MarketTally[];
  /** Latest fetchedAt counted: kept on per-market 10-minute buckets only (else null). */
  lastAt: number | null;
}

/** One bucket of one series. `start` is the bucket's start, ms. */
export interface RollupRow {
  start: number;
  ask: SidePartial | null;
  bid: SidePartial | null;
  sales: PriceTally | null;
}

export interface SideObservation {
  market: MarketId;
  side: Side;
  price: Cents;
  size: number;
  quantity: number;
  at: number;
}

export type Scope = 'market' | 'aggregate';

/** The rows an observation lands in: its market's series and the item's aggregate, per tier. */
export type RowLookup = (scope: Scope, tier: Tier) => RollupRow;

const MARKET_ORDER = new Map<MarketId, number>(MARKET_IDS.map((id, index) => [id, index]));

export function marketOrder(market: MarketId): number {
  return MARKET_ORDER.get(market)!;
}

export function emptyRow(start: number): RollupRow {
  return { start, ask: null, bid: null, sales: null };
}

/** The observation a snapshot makes, or null for an empty side. */
export function sideObservation(snapshot: SideSnapshot): SideObservation | null {
  const top = snapshot.levels[0];
  if (!top) return null;
  return {
    market: snapshot.market,
    side: snapshot.side,
    price: top.price,
    size: quoteSize(snapshot),
    quantity: snapshot.side === 'bid' ? snapshot.totalQuantity : 0,
    at: snapshot.fetchedAt,
  };
}

export function addPrice(tally: PriceTally | null, price: Cents, count = 1): PriceTally {
  if (!tally) {
    const sketch: Sketch = [];
    sketchAdd(sketch, price, count);
    return { n: count, sum: price * count, min: price, max: price, sketch };
  }
  tally.n += count;
  tally.sum += price * count;
  if (price < tally.min) tally.min = price;
  if (price > tally.max) tally.max = price;
  sketchAdd(tally.sketch, price, count);
  return tally;
}

export function mergePrices(into: PriceTally | null, from: PriceTally | null): PriceTally | null {
  if (!from) return into;
  if (!into) return { ...from, sketch: sketchCopy(from.sketch) };
  into.n += from.n;
  into.sum += from.sum;
  into.min = Math.min(into.min, from.min);
  into.max = Math.max(into.max, from.max);
  sketchMerge(into.sketch, from.sketch);
  return into;
}

/** Adds `from` to its market's tally; a new market's tally is `from` itself unless `copy`. */
function mergeTally(tallies: MarketTally[], from: MarketTally, copy = true): void {
  const order = marketOrder(from.market);
  let index = tallies.length;
  while (index > 0 && marketOrder(tallies[index - 1]!.market) > order) index -= 1;
  const held = tallies[index - 1];
  if (held && held.market === from.market) {
    held.n += from.n;
    held.size += from.size;
    held.quantity += from.quantity;
    held.top = Math.max(held.top, from.top);
  } else tallies.splice(index, 0, copy ? { ...from } : from);
}

/** True when a per-market 10-minute bucket already counted a snapshot this recent. */
export function isCounted(partial: SidePartial | null, at: number): boolean {
  return partial !== null && partial.lastAt !== null && at <= partial.lastAt;
}

export function addObservation(
  partial: SidePartial | null,
  obs: SideObservation,
  trackLastAt: boolean,
): SidePartial {
  const tally = {
    market: obs.market,
    n: 1,
    size: obs.size,
    quantity: obs.quantity,
    top: obs.side === 'bid' ? obs.price : 0,
  };
  const lastAt = trackLastAt ? obs.at : null;
  if (!partial) return { prices: addPrice(null, obs.price), markets: [tally], lastAt };
  addPrice(partial.prices, obs.price);
  mergeTally(partial.markets, tally, false);
  if (lastAt !== null) partial.lastAt = Math.max(partial.lastAt ?? lastAt, lastAt);
  return partial;
}

export function mergeSide(
  side: Side,
  into: SidePartial | null,
  from: SidePartial | null,
): SidePartial | null {
  if (!from) return into;
  let target: SidePartial;
  if (into) {
    target = into;
    mergePrices(target.prices, from.prices);
  } else target = { prices: mergePrices(null, from.prices)!, markets: [], lastAt: null };
  for (const tally of from.markets) mergeTally(target.markets, tally);
  if (from.lastAt !== null) target.lastAt = Math.max(target.lastAt ?? from.lastAt, from.lastAt);
  return target;
}

/** Merges `from` into `into` (mutates `into`; `from` is left untouched). */
export function mergeRow(into: RollupRow, from: RollupRow): RollupRow {
  into.ask = mergeSide('ask', into.ask, from.ask);
  into.bid = mergeSide('bid', into.bid, from.bid);
  into.sales = mergePrices(into.sales, from.sales);
  return into;
}

/**
 * Records a book observation in every tier of its market's series and of the item's aggregate
 * (bids of markets that are not cash-executable stay out of the aggregate). Returns false when
 * the snapshot was already counted (nothing changes).
 */
export function recordSide(rows: RowLookup, obs: SideObservation): boolean {
  if (isCounted(rows('market', '10m')[obs.side], obs.at)) return false;
  const toAggregate = obs.side === 'ask' || isCashExecutable(obs.market);
  for (const tier of TIERS) {
    const own = rows('market', tier);
    own[obs.side] = addObservation(own[obs.side], obs, tier === '10m');
    if (!toAggregate) continue;
    const all = rows('aggregate', tier);
    all[obs.side] = addObservation(all[obs.side], obs, false);
  }
  return true;
}

/** Records a sale (price × units) in every tier of its market's series and of the aggregate. */
export function recordSale(rows: RowLookup, price: Cents, units: number): void {
  for (const tier of TIERS) {
    for (const scope of ['market', 'aggregate'] as const) {
      const row = rows(scope, tier);
      row.sales = addPrice(row.sales, price, units);
    }
  }
}
