/**
 * Execution-adjusted quotes: what a buyer pays in total on an ask (price + buyer fee) and what a
 * seller nets on a bid (gross − seller commission − flat withdrawal fee, floored at 0), with an
 * executability score and the reasons behind it. The best adjusted quote is picked over every
 * eligible market, so it may come from a different market than the raw best.
 */
import { iso } from '../domain/clock.ts';
import { isStale } from '../domain/freshness.ts';
import { bpsOf, type Bps, type Cents } from '../domain/money.ts';
import type { MarketId } from '../domain/markets.ts';
import type { SideSnapshot } from '../domain/quote.ts';
import { feesFor, type FeeModel, type MarketFees } from '../markets/fees.ts';
import { bestAskSide, bestBidSide } from './top-of-book.ts';
import { score4, topLevel } from './book-view.ts';

/**
 * Reasons attached to execution-adjusted quotes (and their union on `executionAdjusted`):
 * - `assumed_fees`: a fee number applied to this quote is flagged as assumed in the fee model.
 * - `unknown_executable_depth`: the market gives a single price without an order count at it
 *   (one level, `orders` null) or a non-positive quantity, so the units fillable at the price
 *   are unknown.
 * - `stale_quote`: the quote's `fetchedAt` is more than 30 minutes old.
 * - `wallet_credit_only`: a bid whose proceeds are wallet credit that cannot be withdrawn.
 * - `no_ask_quotes` / `no_bid_quotes` (top level only): that side has no eligible quote.
 */
export type ExecutionReason =
  | 'assumed_fees'
  | 'unknown_executable_depth'
  | 'stale_quote'
  | 'wallet_credit_only'
  | 'no_ask_quotes'
  | 'no_bid_quotes';

/**
 * Executability (0..1): how likely the adjusted price can actually be executed. It starts at 1
 * and is multiplied by each factor that applies.
 */
export const EXECUTABILITY_FACTORS = {
  stale_quote: 0.5,
  unknown_executable_depth: 0.7,
  wallet_credit_only: 0.5,
  assumed_fees: 0.9,
} as const;

export interface AdjustedQuote {
  market: MarketId;
  /** Ask: total the buyer pays. Bid: what the seller nets. */
  price: Cents;
  rawPrice: Cents;
  appliedFeeBps: Bps;
  executability: number;
  updatedAt: string;
  isStale: boolean;
  reasons: ExecutionReason[];
}

export interface AdjustedBid extends AdjustedQuote {
  withdrawalFlatUsdCents: Cents;
}

export function buyerPays(price: Cents, fees: MarketFees): Cents {
  return price + bpsOf(price, fees.buyerFeeBps);
}

export function sellerNets(price: Cents, fees: MarketFees): Cents {
  return Math.max(0, price - bpsOf(price, fees.sellerFeeBps) - fees.withdrawalFlatCents);
}

/** True when the units fillable at the side's best price are known. */
export function hasKnownDepth(side: SideSnapshot): boolean {
  const top = topLevel(side);
  return top.quantity > 0 && (side.levels.length > 1 || top.orders !== null);
}

export function executabilityOf(reasons: readonly ExecutionReason[]): number {
  let value = 1;
  for (const reason of reasons) {
    if (reason in EXECUTABILITY_FACTORS) {
      value *= EXECUTABILITY_FACTORS[reason as keyof typeof EXECUTABILITY_FACTORS];
    }
  }
  return score4(value);
}

function quoteReasons(side: SideSnapshot, feesAssumed: boolean, now: number): ExecutionReason[] {
  const reasons: ExecutionReason[] = [];
  if (feesAssumed) reasons.push('assumed_fees');
  if (!hasKnownDepth(side)) reasons.push('unknown_executable_depth');
  if (isStale(side.fetchedAt, now)) reasons.push('stale_quote');
  return reasons;
}

export function adjustAsk(side: SideSnapshot, model: FeeModel, now: number): AdjustedQuote {
  const fees = feesFor(model, side.market);
  const rawPrice = topLevel(side).price;
  const reasons = quoteReasons(side, fees.sources.buyerFeeBps.assumed, now);
  return {
    market: side.market,
    price: buyerPays(rawPrice, fees),
    rawPrice,
    appliedFeeBps: fees.buyerFeeBps,
    executability: executabilityOf(reasons),
    updatedAt: iso(side.fetchedAt),
    isStale: isStale(side.fetchedAt, now),
    reasons,
  };
}

export function adjustBid(side: SideSnapshot, model: FeeModel, now: number): AdjustedBid {
  const fees = feesFor(model, side.market);
  const rawPrice = topLevel(side).price;
  const { sellerFeeBps, withdrawalFlatCents, cashWithdrawable } = fees.sources;
  const assumed = sellerFeeBps.assumed || withdrawalFlatCents.assumed || cashWithdrawable.assumed;
  const reasons = quoteReasons(side, assumed, now);
  if (!fees.cashWithdrawable) reasons.push('wallet_credit_only');
  return {
    market: side.market,
    price: sellerNets(rawPrice, fees),
    rawPrice,
    appliedFeeBps: fees.sellerFeeBps,
    withdrawalFlatUsdCents: fees.withdrawalFlatCents,
    executability: executabilityOf(reasons),
    updatedAt: iso(side.fetchedAt),
    isStale: isStale(side.fetchedAt, now),
    reasons,
  };
}

/** Lowest total cost over the given ask sides (same tie-break as the raw best ask). */
export function bestAdjustedAsk(
  asks: readonly SideSnapshot[],
  model: FeeModel,
  now: number,
): AdjustedQuote | null {
  return pickAdjusted(asks, (side) => adjustAsk(side, model, now), bestAskSide);
}

/** Highest net proceeds over the given (already eligible) bid sides. */
export function bestAdjustedBid(
  bids: readonly SideSnapshot[],
  model: FeeModel,
  now: number,
): AdjustedBid | null {
  return pickAdjusted(bids, (side) => adjustBid(side, model, now), bestBidSide);
}

/** Re-prices each side at its adjusted price and lets the top-of-book rule pick the best. */
function pickAdjusted<Q extends AdjustedQuote>(
  sides: readonly SideSnapshot[],
  adjust: (side: SideSnapshot) => Q,
  pickBest: (sides: readonly SideSnapshot[]) => SideSnapshot | null,
): Q | null {
  const byRepriced = new Map<SideSnapshot, Q>();
  for (const side of sides) {
    const adjusted = adjust(side);
    const repriced = { ...side, levels: [{ ...topLevel(side), price: adjusted.price }] };
    byRepriced.set(repriced, adjusted);
  }
  const best = pickBest([...byRepriced.keys()]);
  return best ? (byRepriced.get(best) ?? null) : null;
}
