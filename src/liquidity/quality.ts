/**
 * How far a liquidity estimate can be trusted: confidence, coverage and the per-market notes.
 *
 * - Confidence: CRITICAL without an estimate (INSUFFICIENT_DATA). LOW when the best market's
 *   sales are thin (fewer than ENOUGH_SALES in the window used) or its sales data is older than
 *   1 day. MEDIUM when its sales data is older than 6 hours, its listings are missing or stale
 *   (older than 30 minutes), or fewer than two of several markets in scope carry an estimate.
 *   HIGH otherwise.
 * - Coverage: `none` when no market in scope has sales evidence; `full` when every market in
 *   scope has both sales evidence and asks; `partial` otherwise.
 * - Notes, per market in scope order: `no_sales_data:<m>` (no sale in 30 days and no published
 *   statistic with volume), else `sales_data_stale:<m>` (newest evidence older than 6 hours)
 *   and `thin_sales:<m>` (fewer than ENOUGH_SALES sales in the window used).
 */
import { isStale } from '../domain/freshness.ts';
import type { MarketId } from '../domain/markets.ts';
import type { SideSnapshot } from '../domain/quote.ts';
import { CAP_LIQUID_AFTER_MS, CAP_VERY_LIQUID_AFTER_MS } from './classify.ts';
import { ENOUGH_SALES, type SalesEvidence } from './sales-rate.ts';

export const CONFIDENCES = ['HIGH', 'MEDIUM', 'LOW', 'CRITICAL'] as const;
export type Confidence = (typeof CONFIDENCES)[number];

export const COVERAGES = ['full', 'partial', 'none'] as const;
export type Coverage = (typeof COVERAGES)[number];

/** What the quality rules need to know about one market. */
export interface MarketFacts {
  market: MarketId;
  ask: SideSnapshot | null;
  evidence: SalesEvidence | null;
  /** Whether the market carries a time-to-sell estimate. */
  estimated: boolean;
}

const salesAge = (evidence: SalesEvidence, now: number) => Math.max(0, now - evidence.latestAt);

export function confidenceOf(
  best: MarketFacts | null,
  all: readonly MarketFacts[],
  now: number,
): Confidence {
  if (!best?.evidence) return 'CRITICAL';
  const age = salesAge(best.evidence, now);
  if (best.evidence.sales < ENOUGH_SALES || age > CAP_LIQUID_AFTER_MS) return 'LOW';
  const listingsUnsure = !best.ask || isStale(best.ask.fetchedAt, now);
  const estimated = all.filter((facts) => facts.estimated).length;
  const alone = all.length > 1 && estimated < 2;
  if (age > CAP_VERY_LIQUID_AFTER_MS || listingsUnsure || alone) return 'MEDIUM';
  return 'HIGH';
}

export function coverageOf(all: readonly MarketFacts[]): Coverage {
  const withSales = all.filter((facts) => facts.evidence !== null);
  if (withSales.length === 0) return 'none';
  const complete = all.every(
    (facts) => facts.evidence !== null && (facts.ask?.levels.length ?? 0) > 0,
  );
  return complete ? 'full' : 'partial';
}

export function notesOf(all: readonly MarketFacts[], now: number): string[] {
  const notes: string[] = [];
  for (const { market, evidence } of all) {
    if (!evidence) {
      notes.push(`no_sales_data:${market}`);
      continue;
    }
    if (salesAge(evidence, now) > CAP_VERY_LIQUID_AFTER_MS)
      notes.push(`sales_data_stale:${market}`);
    if (evidence.sales < ENOUGH_SALES) notes.push(`thin_sales:${market}`);
  }
  return notes;
}
