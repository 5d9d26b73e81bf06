/**
 * Rollup rows → price history points (pure). One point per bucket that observed the listing
 * type: asks for SELL_OFFER, bids for BUY_ORDER, sales for SALE_HISTORY; otherwise no point.
 *
 * - avgPrice: mean of the observations, half up; medianPrice: the sketch's (rollup-sketch.ts).
 * - bestAskCents: lowest ask observed in the bucket. bestBidCents: per-market series, the
 *   market's highest bid; aggregate, the highest cash-executable market's best bid that does
 *   not exceed bestAskCents (each market's best bid in the bucket is a candidate; with no ask
 *   observed, any). spreadBps: (ask − bid) in bps of the mid price (ask + bid) / 2; negative
 *   on a crossed per-market bucket.
 * - listingCount: SELL_OFFER, the listings behind the asks; BUY_ORDER, the buy orders; each
 *   market's count is its average over the bucket's observations (half up), and the aggregate
 *   sums the markets. SALE_HISTORY: units sold in the bucket.
 * - totalQuantity (BUY_ORDER only): units the bids absorb, averaged and summed the same way.
 * - volume (SALE_HISTORY only): the rolling sale count the caller computed (rollup-volume.ts).
 */
import { iso } from '../domain/clock.ts';
import type { Cents } from '../domain/money.ts';
import { spreadBps } from '../domain/money.ts';
import type { MarketTally, PriceTally, RollupRow, Scope } from './rollups.ts';
import { sketchMedian } from './rollup-sketch.ts';

export const LISTING_TYPES = ['SELL_OFFER', 'BUY_ORDER', 'SALE_HISTORY'] as const;
export type ListingType = (typeof LISTING_TYPES)[number];

export const LISTING_TYPE_ALIASES: Readonly<Record<string, ListingType>> = {
  SELL_OFFER: 'SELL_OFFER',
  BUY_ORDER: 'BUY_ORDER',
  SALE_HISTORY: 'SALE_HISTORY',
  SELL: 'SELL_OFFER',
  BUY: 'BUY_ORDER',
  SALES: 'SALE_HISTORY',
};

export interface HistoryPoint {
  timestamp: string;
  avgPrice: Cents;
  medianPrice: Cents;
  minPrice: Cents;
  maxPrice: Cents;
  bestAskCents: Cents | null;
  bestBidCents: Cents | null;
  spreadBps: number | null;
  listingCount: number;
  totalQuantity: number | null;
  volume: number | null;
}

/** sum / n rounded half up (non-negative integers, n > 0). */
export function roundedRatio(sum: number, n: number): number {
  return Math.floor((2 * sum + n) / (2 * n));
}

export function bestAskOf(row: RollupRow): Cents | null {
  return row.ask ? row.ask.prices.min : null;
}

export function bestBidOf(row: RollupRow, scope: Scope): Cents | null {
  if (!row.bid) return null;
  if (scope === 'market') return row.bid.prices.max;
  const ask = bestAskOf(row);
  let best: Cents | null = null;
  for (const tally of row.bid.markets) {
    if (ask !== null && tally.top > ask) continue;
    if (best === null || tally.top > best) best = tally.top;
  }
  return best;
}

/** Spread in bps of the mid price; null when a side is missing. */
export function midSpreadBps(ask: Cents | null, bid: Cents | null): number | null {
  if (ask === null || bid === null) return null;
  return spreadBps(ask, bid, (ask + bid) / 2);
}

function summedAverage(tallies: readonly MarketTally[], field: 'size' | 'quantity'): number {
  let total = 0;
  for (const tally of tallies) total += roundedRatio(tally[field], tally.n);
  return total;
}

function pricesFor(row: RollupRow, type: ListingType): PriceTally | null {
  if (type === 'SELL_OFFER') return row.ask?.prices ?? null;
  if (type === 'BUY_ORDER') return row.bid?.prices ?? null;
  return row.sales;
}

function listingCountFor(row: RollupRow, type: ListingType): number {
  if (type === 'SELL_OFFER') return summedAverage(row.ask!.markets, 'size');
  if (type === 'BUY_ORDER') return summedAverage(row.bid!.markets, 'size');
  return row.sales!.n;
}

/** The point of one bucket, or null when the bucket observed nothing of this listing type. */
export function historyPoint(
  row: RollupRow,
  type: ListingType,
  scope: Scope,
  volume: number | null = null,
): HistoryPoint | null {
  const prices = pricesFor(row, type);
  if (!prices) return null;
  const ask = bestAskOf(row);
  const bid = bestBidOf(row, scope);
  return {
    timestamp: iso(row.start),
    avgPrice: roundedRatio(prices.sum, prices.n),
    medianPrice: sketchMedian(prices.sketch)!,
    minPrice: prices.min,
    maxPrice: prices.max,
    bestAskCents: ask,
    bestBidCents: bid,
    spreadBps: midSpreadBps(ask, bid),
    listingCount: listingCountFor(row, type),
    totalQuantity: type === 'BUY_ORDER' ? summedAverage(row.bid!.markets, 'quantity') : null,
    volume: type === 'SALE_HISTORY' ? volume : null,
  };
}
