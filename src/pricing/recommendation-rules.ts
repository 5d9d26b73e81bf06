/**
 * The thresholds behind a recommendation's `unstable_reasons`, written down as data, and the
 * support measure they rest on. Every comparison is integer arithmetic on cents.
 */
import type { Cents } from '../domain/money.ts';
import { BPS_DENOMINATOR } from '../domain/money.ts';
import type { Side } from '../domain/observation.ts';
import type { SideSnapshot } from '../domain/quote.ts';

/** wide_spread: best ask MORE than 15% above best bid (ask > bid × 1.15; exactly 15% is not wide). */
export const WIDE_SPREAD_BPS = 1500;
/** low_fresh_market_coverage: fewer than this many markets with a fresh quote. */
export const MIN_FRESH_MARKETS = 2;
/**
 * The "top" of a side: prices within 5% of its best price (asks up to best × 1.05, bids down to
 * best × 0.95). A market supports the best price when its own best price lies in this band.
 */
export const SUPPORT_BAND_BPS = 500;
/**
 * thin_sell_liquidity / thin_buy_liquidity: fewer than 3 units quoted in the band, all markets
 * together. A level counts at least one unit (a quoted price stands for at least one item).
 */
export const THIN_UNITS = 3;
/**
 * Independent support: a side's best price is independently supported when at least 2 markets
 * quote in the band, or when its one market alone shows at least THIN_UNITS units in the band
 * (several listings, not one possibly mispriced item). insufficient_independent_support is set
 * when a present side lacks it; strategy insufficient_support when no present side has it.
 */
export const MIN_SUPPORTING_MARKETS = 2;

export const UNSTABLE_REASONS = [
  'no_sell_quotes',
  'no_buy_orders',
  'stale_top_of_book',
  'low_fresh_market_coverage',
  'thin_sell_liquidity',
  'thin_buy_liquidity',
  'insufficient_independent_support',
  'wide_spread',
  'crossed_market',
] as const;
export type UnstableReason = (typeof UNSTABLE_REASONS)[number];

export interface SideSupport {
  /** Markets whose own best price lies in the band. */
  markets: number;
  /** Units quoted in the band across markets. */
  units: number;
}

export function inBand(price: Cents, best: Cents, side: Side): boolean {
  return side === 'ask'
    ? price * BPS_DENOMINATOR <= best * (BPS_DENOMINATOR + SUPPORT_BAND_BPS)
    : price * BPS_DENOMINATOR >= best * (BPS_DENOMINATOR - SUPPORT_BAND_BPS);
}

export function sideSupport(sides: readonly SideSnapshot[], best: Cents, side: Side): SideSupport {
  let markets = 0;
  let units = 0;
  for (const snapshot of sides) {
    let near = 0;
    for (const level of snapshot.levels) {
      if (!inBand(level.price, best, side)) continue;
      near += 1;
      units += Math.max(1, level.quantity);
    }
    if (near > 0) markets += 1;
  }
  return { markets, units };
}

export function isThin(support: SideSupport): boolean {
  return support.units < THIN_UNITS;
}

export function isIndependentlySupported(support: SideSupport): boolean {
  return support.markets >= MIN_SUPPORTING_MARKETS || support.units >= THIN_UNITS;
}

export function isWideSpread(ask: Cents, bid: Cents): boolean {
  return ask * BPS_DENOMINATOR > bid * (BPS_DENOMINATOR + WIDE_SPREAD_BPS);
}

export interface ReasonInput {
  asks: readonly SideSnapshot[];
  bids: readonly SideSnapshot[];
  bestAsk: TopPrice | null;
  bestBid: TopPrice | null;
  freshMarketCount: number;
}

export interface TopPrice {
  price: Cents;
  isStale: boolean;
}

/** Every unstable reason that applies, in UNSTABLE_REASONS order. */
export function unstableReasons(input: ReasonInput): UnstableReason[] {
  const { asks, bids, bestAsk, bestBid } = input;
  const found = new Set<UnstableReason>();
  if (!bestAsk) found.add('no_sell_quotes');
  if (!bestBid) found.add('no_buy_orders');
  if (bestAsk?.isStale || bestBid?.isStale) found.add('stale_top_of_book');
  if (input.freshMarketCount < MIN_FRESH_MARKETS) found.add('low_fresh_market_coverage');
  const askSupport = bestAsk && sideSupport(asks, bestAsk.price, 'ask');
  const bidSupport = bestBid && sideSupport(bids, bestBid.price, 'bid');
  if (askSupport && isThin(askSupport)) found.add('thin_sell_liquidity');
  if (bidSupport && isThin(bidSupport)) found.add('thin_buy_liquidity');
  if (
    (askSupport && !isIndependentlySupported(askSupport)) ||
    (bidSupport && !isIndependentlySupported(bidSupport))
  ) {
    found.add('insufficient_independent_support');
  }
  if (bestAsk && bestBid) {
    if (isWideSpread(bestAsk.price, bestBid.price)) found.add('wide_spread');
    if (bestBid.price > bestAsk.price) found.add('crossed_market');
  }
  return UNSTABLE_REASONS.filter((reason) => found.has(reason));
}

/** True when at least one present side's best price is independently supported. */
export function hasIndependentSupport(input: Omit<ReasonInput, 'freshMarketCount'>): boolean {
  const { asks, bids, bestAsk, bestBid } = input;
  const askOk =
    bestAsk !== null && isIndependentlySupported(sideSupport(asks, bestAsk.price, 'ask'));
  const bidOk =
    bestBid !== null && isIndependentlySupported(sideSupport(bids, bestBid.price, 'bid'));
  return askOk || bidOk;
}
