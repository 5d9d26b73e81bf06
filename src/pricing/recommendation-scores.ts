/**
 * The two 0..1 scores on a recommendation.
 *
 * confidence = STRATEGY_BASE[strategy] × 0.85^(number of unstable reasons), 4 decimals.
 *   The base says how much the strategy itself can be trusted (a fresh midpoint most, a stale
 *   one-sided fallback least, no suggestion 0); each unstable reason takes 15% off.
 *
 * liquidity_score = 0.5 × sell depth + 0.3 × buy depth + 0.2 × breadth, 4 decimals, where
 *   sell depth = min(1, log10(1 + listings) / log10(1 + 500)),
 *   buy depth  = min(1, log10(1 + bid units) / log10(1 + 100)),
 *   breadth    = min(1, markets / 8).
 *   500 listings, 100 bid units and 8 markets each saturate their term.
 */
import type { UnstableReason } from './recommendation-rules.ts';
import { score4 } from './book-view.ts';

export type Strategy =
  | 'midpoint'
  | 'best_ask_fallback'
  | 'best_bid_fallback'
  | 'stale_midpoint'
  | 'stale_best_ask_fallback'
  | 'stale_best_bid_fallback'
  | 'crossed_best_ask'
  | 'no_data'
  | 'insufficient_support';

export const STRATEGY_BASE: Readonly<Record<Strategy, number>> = {
  midpoint: 1,
  best_ask_fallback: 0.8,
  best_bid_fallback: 0.7,
  crossed_best_ask: 0.6,
  stale_midpoint: 0.5,
  stale_best_ask_fallback: 0.4,
  stale_best_bid_fallback: 0.35,
  no_data: 0,
  insufficient_support: 0,
};
export const UNSTABLE_REASON_FACTOR = 0.85;

export const LIQUIDITY_SATURATION = { listings: 500, bidUnits: 100, markets: 8 } as const;
export const LIQUIDITY_WEIGHTS = { sell: 0.5, buy: 0.3, breadth: 0.2 } as const;

export function recommendationConfidence(
  strategy: Strategy,
  reasons: readonly UnstableReason[],
): number {
  return score4(STRATEGY_BASE[strategy] * UNSTABLE_REASON_FACTOR ** reasons.length);
}

export function liquidityScore(listings: number, bidUnits: number, markets: number): number {
  const sell = logShare(listings, LIQUIDITY_SATURATION.listings);
  const buy = logShare(bidUnits, LIQUIDITY_SATURATION.bidUnits);
  const breadth = Math.min(1, markets / LIQUIDITY_SATURATION.markets);
  return score4(
    LIQUIDITY_WEIGHTS.sell * sell +
      LIQUIDITY_WEIGHTS.buy * buy +
      LIQUIDITY_WEIGHTS.breadth * breadth,
  );
}

function logShare(value: number, saturation: number): number {
  return Math.min(1, Math.log10(1 + Math.max(0, value)) / Math.log10(1 + saturation));
}
