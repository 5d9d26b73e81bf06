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
 * highest bid) so aggregate counts and the aggregate best bid stay exact after merging.
 */
import { marketCode, marketOfCode } from '../domain/market-codes.ts';
import type { MarketId } from '../domain/markets.ts';
import { isCashMarket } from '../markets/fees.ts';
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

/**
 * One tally per contributing market, flat (one array per side instead of an object per
 * market: long reads decode ~100k of them): TALLY_STRIDE numbers per market, in market-code
 * order (market-codes.ts), at the TALLY offsets.
 */
export type MarketTallies = number[];

export const TALLY_STRIDE = 5;
export const TALLY = {
  /** The market's on-disk code (market-codes.ts). */
  market: 0,
  /** Observations. */
  n: 1,
  /** Sum of observed quoteSizes (listings for asks, orders for bids). */
  size: 2,
  /** Bids: sum of observed totalQuantity (0 for asks). */
  quantity: 3,
  /** Bids: the highest bid seen, a candidate for the aggregate best bid (0 for asks). */
  top: 4,
} as const;

export interface SidePartial {
  prices: PriceTally;
  markets: MarketTallies;
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

/**
 * The rows an observation lands in: its market's series and the item's aggregate, per tier;
 * null for a tier whose bucket is not kept (derived from a finer tier on read).
 */
export type RowLookup = (scope: Scope, tier: Tier) => RollupRow | null;

/** The order tallies are kept in, and the number stored for the market: its code. */
export function marketOrder(market: MarketId): number {
  return marketCode(market);
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

/** Adds one market's counts to its tally (a new tally where the market has none). */
function addTally(
  tallies: MarketTallies,
  market: number,
  n: number,
  size: number,
  quantity: number,
  top: Cents,
): void {
  let index = tallies.length;
  while (index > 0 && tallies[index - TALLY_STRIDE]! > market) index -= TALLY_STRIDE;
  const held = index - TALLY_STRIDE;
  if (index > 0 && tallies[held] === market) {
    tallies[held + TALLY.n]! += n;
    tallies[held + TALLY.size]! += size;
    tallies[held + TALLY.quantity]! += quantity;
    tallies[held + TALLY.top] = Math.max(tallies[held + TALLY.top]!, top);
  } else if (index === tallies.length) tallies.push(market, n, size, quantity, top);
  else tallies.splice(index, 0, market, n, size, quantity, top);
}

/** The markets of a side's tallies, in market-code order. */
export function talliedMarkets(partial: SidePartial): MarketId[] {
  const out: MarketId[] = [];
  for (let index = 0; index < partial.markets.length; index += TALLY_STRIDE) {
    out.push(marketOfCode(partial.markets[index]!)!);
  }
  return out;
}

/** Sum over the tallies of one field (TALLY offset). */
export function talliedSum(partial: SidePartial, field: number): number {
  let total = 0;
  for (let index = field; index < partial.markets.length; index += TALLY_STRIDE) {
    total += partial.markets[index]!;
  }
  return total;
}

/** True when a snapshot at `at` is no later than the latest its 10-minute bucket counted. */
export function countedBefore(lastAt: number | null, at: number): boolean {
  return lastAt !== null && at <= lastAt;
}

/** True when a per-market 10-minute bucket already counted a snapshot this recent. */
export function isCounted(partial: SidePartial | null, at: number): boolean {
  return partial !== null && countedBefore(partial.lastAt, at);
}

/** Asks always enter the aggregate; bids only from cash-executable markets (best-bid rule). */
export function entersAggregate(obs: SideObservation): boolean {
  return obs.side === 'ask' || isCashMarket(obs.market);
}

export function addObservation(
  partial: SidePartial | null,
  obs: SideObservation,
  trackLastAt: boolean,
): SidePartial {
  const lastAt = trackLastAt ? obs.at : null;
  const top = obs.side === 'bid' ? obs.price : 0;
  const market = marketOrder(obs.market);
  if (!partial) {
    const markets = [market, 1, obs.size, obs.quantity, top];
    return { prices: addPrice(null, obs.price), markets, lastAt };
  }
  addPrice(partial.prices, obs.price);
  addTally(partial.markets, market, 1, obs.size, obs.quantity, top);
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
  const tallies = from.markets;
  for (let index = 0; index < tallies.length; index += TALLY_STRIDE) {
    addTally(
      target.markets,
      tallies[index]!,
      tallies[index + TALLY.n]!,
      tallies[index + TALLY.size]!,
      tallies[index + TALLY.quantity]!,
      tallies[index + TALLY.top]!,
    );
  }
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
  if (isCounted(rows('market', '10m')?.[obs.side] ?? null, obs.at)) return false;
  const toAggregate = entersAggregate(obs);
  for (const tier of TIERS) {
    const own = rows('market', tier);
    if (own) own[obs.side] = addObservation(own[obs.side], obs, tier === '10m');
    const all = toAggregate ? rows('aggregate', tier) : null;
    if (all) all[obs.side] = addObservation(all[obs.side], obs, false);
  }
  return true;
}

/** Records a sale (price × units) in every tier of its market's series and of the aggregate. */
export function recordSale(rows: RowLookup, price: Cents, units: number): void {
  for (const tier of TIERS) {
    for (const scope of ['market', 'aggregate'] as const) {
      const row = rows(scope, tier);
      if (row) row.sales = addPrice(row.sales, price, units);
    }
  }
}
