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
import { DAY, iso, MINUTE } from '../domain/clock.ts';
import type { Cents } from '../domain/money.ts';
import { quoteSpreadBps } from './top-of-book.ts';
import {
  TALLY,
  TALLY_STRIDE,
  type MarketTallies,
  type PriceTally,
  type RollupRow,
  type Scope,
} from './rollups.ts';
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

const TWO_DIGITS = Array.from({ length: 60 }, (_, value) => String(value).padStart(2, '0'));
let prefixDay = Number.NaN;
let prefix = '';

/** iso(ms) for bucket starts, without a Date per point (the day's prefix is reused). */
export function bucketTimestamp(ms: number): string {
  const day = Math.floor(ms / DAY);
  const inDay = ms - day * DAY;
  if (inDay % MINUTE !== 0) return iso(ms);
  if (day !== prefixDay) {
    prefixDay = day;
    prefix = iso(day * DAY).slice(0, 11);
  }
  const minutes = inDay / MINUTE;
  return `${prefix}${TWO_DIGITS[Math.floor(minutes / 60)]}:${TWO_DIGITS[minutes % 60]}:00.000Z`;
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
  const tallies = row.bid.markets;
  for (let index = TALLY.top; index < tallies.length; index += TALLY_STRIDE) {
    const top = tallies[index]!;
    if (ask !== null && top > ask) continue;
    if (best === null || top > best) best = top;
  }
  return best;
}

/** Spread in bps of the mid price; null when a side is missing. */
export function midSpreadBps(ask: Cents | null, bid: Cents | null): number | null {
  return quoteSpreadBps(ask, bid, 'mid');
}

/** Σ over markets of the market's per-observation average of a TALLY field, half up. */
function summedAverage(tallies: MarketTallies, field: number): number {
  let total = 0;
  for (let index = 0; index < tallies.length; index += TALLY_STRIDE) {
    total += roundedRatio(tallies[index + field]!, tallies[index + TALLY.n]!);
  }
  return total;
}

function pricesFor(row: RollupRow, type: ListingType): PriceTally | null {
  if (type === 'SELL_OFFER') return row.ask?.prices ?? null;
  if (type === 'BUY_ORDER') return row.bid?.prices ?? null;
  return row.sales;
}

function listingCountFor(row: RollupRow, type: ListingType): number {
  if (type === 'SELL_OFFER') return summedAverage(row.ask!.markets, TALLY.size);
  if (type === 'BUY_ORDER') return summedAverage(row.bid!.markets, TALLY.size);
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
    timestamp: bucketTimestamp(row.start),
    avgPrice: roundedRatio(prices.sum, prices.n),
    medianPrice: sketchMedian(prices.sketch)!,
    minPrice: prices.min,
    maxPrice: prices.max,
    bestAskCents: ask,
    bestBidCents: bid,
    spreadBps: midSpreadBps(ask, bid),
    listingCount: listingCountFor(row, type),
    totalQuantity: type === 'BUY_ORDER' ? summedAverage(row.bid!.markets, TALLY.quantity) : null,
    volume: type === 'SALE_HISTORY' ? volume : null,
  };
}
