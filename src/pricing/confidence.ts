/**
 * NBBO confidence (0..1) from coverage, freshness and agreement between markets:
 *
 *   confidence = 0.4 × coverage + 0.3 × freshness + 0.3 × agreement      (rounded to 4 decimals)
 *
 * - coverage  = min(1, freshMarketCount / 3): three fresh markets give full coverage.
 * - freshness = mean over the two top-of-book sides (best ask, best bid) of
 *               1 − 0.5 × age / 30 min for a fresh quote, 0 for a stale or missing one.
 * - agreement = mean over the sides quoted by at least two markets of
 *               max(0, 1 − |best − median| / median / 0.2), where median is taken over each
 *               market's own best price: the best price agrees with the crowd when it is close
 *               to the typical market; 20% away (or more) is no agreement. 0 when no side has
 *               two markets (one market cannot corroborate itself).
 * A book with no quotes has confidence 0.
 */
import { STALE_AFTER_MS, isStale } from '../domain/freshness.ts';
import type { SideSnapshot } from '../domain/quote.ts';
import { ageMs, score4, topLevel } from './book-view.ts';

export const CONFIDENCE_WEIGHTS = { coverage: 0.4, freshness: 0.3, agreement: 0.3 } as const;
/** Fresh markets needed for full coverage. */
export const FULL_COVERAGE_MARKETS = 3;
/** Relative distance between best and median price at which agreement reaches 0. */
export const AGREEMENT_TOLERANCE = 0.2;

export interface ConfidenceInput {
  asks: readonly SideSnapshot[];
  bids: readonly SideSnapshot[];
  bestAsk: SideSnapshot | null;
  bestBid: SideSnapshot | null;
  freshMarketCount: number;
  now: number;
}

export function nbboConfidence(input: ConfidenceInput): number {
  if (input.asks.length === 0 && input.bids.length === 0) return 0;
  const value =
    CONFIDENCE_WEIGHTS.coverage * coverageScore(input.freshMarketCount) +
    CONFIDENCE_WEIGHTS.freshness * freshnessScore(input.bestAsk, input.bestBid, input.now) +
    CONFIDENCE_WEIGHTS.agreement * agreementScore(input.asks, input.bids);
  return score4(value);
}

export function coverageScore(freshMarketCount: number): number {
  return Math.min(1, freshMarketCount / FULL_COVERAGE_MARKETS);
}

export function freshnessScore(
  bestAsk: SideSnapshot | null,
  bestBid: SideSnapshot | null,
  now: number,
): number {
  return (sideFreshness(bestAsk, now) + sideFreshness(bestBid, now)) / 2;
}

function sideFreshness(side: SideSnapshot | null, now: number): number {
  if (!side || isStale(side.fetchedAt, now)) return 0;
  return 1 - (0.5 * ageMs(side.fetchedAt, now)) / STALE_AFTER_MS;
}

export function agreementScore(
  asks: readonly SideSnapshot[],
  bids: readonly SideSnapshot[],
): number {
  const scores: number[] = [];
  for (const side of [asks, bids]) {
    if (side.length < 2) continue;
    const prices = side.map((entry) => topLevel(entry).price);
    const best = side === asks ? Math.min(...prices) : Math.max(...prices);
    const mid = median(prices);
    const gap = mid > 0 ? Math.abs(best - mid) / mid : 1;
    scores.push(Math.max(0, 1 - gap / AGREEMENT_TOLERANCE));
  }
  return scores.length === 0 ? 0 : scores.reduce((sum, value) => sum + value, 0) / scores.length;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  if (sorted.length % 2 === 1) return sorted[middle]!;
  return (sorted[middle - 1]! + sorted[middle]!) / 2;
}
