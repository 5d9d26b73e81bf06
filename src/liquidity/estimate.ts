/**
 * The liquidity record (spec: "Liquidity record"), pure over what the book holds for one item:
 * per liquidity market its ask side, its sales (or published sales statistics), and `now`.
 *
 * - Reference price: the given `askPrice`, else the cheapest ask among the markets in scope.
 * - Per market with at least MIN_SALES_FOR_ESTIMATE sales in 30 days: the queue ahead at the
 *   reference price (queue.ts) and the median / p90 hours to sell behind it at its observed
 *   sales rate (queue-time.ts, sales-rate.ts). Times come from observed sales velocity only.
 * - Best market to list on: the shortest median at the reference price (ties: market order).
 *   The top-level times, salesPerDay and activeListings are the best market's.
 * - marketWide*: the whole current supply (every market's listings) clearing at the combined
 *   rate of the estimated markets (the N-th sale at Σ rates); 0 hours for no supply.
 * - No market with an estimate → INSUFFICIENT_DATA with null times, best market and score.
 * Hours and rates are rounded to 2 decimals; the badge is judged on the rounded median.
 */
import type { MarketSides } from '../book/book.ts';
import { iso, MINUTE } from '../domain/clock.ts';
import type { MarketId } from '../domain/markets.ts';
import type { Cents } from '../domain/money.ts';
import type { SaleRecord, SalesStatsRecord, SideSnapshot } from '../domain/quote.ts';
import type { ItemRef } from '../pricing/book-view.ts';
import { classify, type LiquidityBadge } from './classify.ts';
import { confidenceOf, coverageOf, notesOf, type Confidence, type Coverage } from './quality.ts';
import type { MarketFacts } from './quality.ts';
import { activeListings, queueAhead } from './queue.ts';
import { queueTimes, type QueueTimes } from './queue-time.ts';
import { evidenceByMarket } from './sales-rate.ts';

/** Fewer sales than this in 30 days on a market give it no time-to-sell estimate. */
export const MIN_SALES_FOR_ESTIMATE = 3;

export interface LiquidityMetricsRow {
  market: MarketId;
  salesPerDay: number | null;
  activeListings: number | null;
  bestAskUsdCents: Cents | null;
  medianTimeToSellHours: number | null;
  p90TimeToSellHours: number | null;
  salesDataAgeMinutes: number | null;
  listingsDataAgeMinutes: number | null;
}

export interface LiquidityRecord {
  canonicalItemId: string;
  marketHashName: string;
  liquidityBadge: LiquidityBadge;
  confidence: Confidence;
  coverage: Coverage;
  medianTimeToSellHours: number | null;
  p90TimeToSellHours: number | null;
  bestMarketToList: MarketId | null;
  salesPerDay: number | null;
  activeListings: number | null;
  referenceAskUsdCents: Cents | null;
  marketWideSalesPerDay: number | null;
  marketWideListings: number | null;
  marketsWithSales: number;
  marketsWithDepth: number;
  marketWideMedianTimeToSellHours: number | null;
  marketWideP90TimeToSellHours: number | null;
  metrics: LiquidityMetricsRow[];
  notes: string[];
  calculatedAt: string;
}

export interface LiquidityInput {
  item: ItemRef;
  /** The liquidity markets in scope, in order. */
  markets: readonly MarketId[];
  sides: readonly MarketSides[];
  /** Sorted by soldAt, as the book holds them. */
  sales: readonly SaleRecord[];
  salesStats: readonly SalesStatsRecord[];
  askPrice: Cents | null;
  now: number;
}

interface MarketState extends MarketFacts {
  times: QueueTimes | null;
}

const round2 = (value: number) => Math.round(value * 100) / 100;
const orNull = <T, R>(value: T | null, map: (present: T) => R): R | null =>
  value === null ? null : map(value);
const ageMinutes = (at: number, now: number) => Math.floor(Math.max(0, now - at) / MINUTE);

function bestAskOf(state: MarketFacts): Cents | null {
  return state.ask?.levels[0]?.price ?? null;
}

function referencePrice(states: readonly MarketFacts[], askPrice: Cents | null): Cents | null {
  if (askPrice !== null) return askPrice;
  const asks = states.map(bestAskOf).filter((price): price is Cents => price !== null);
  return asks.length > 0 ? Math.min(...asks) : null;
}

function askOf(sides: readonly MarketSides[], market: MarketId): SideSnapshot | null {
  for (const entry of sides) if (entry.market === market) return entry.ask ?? null;
  return null;
}

function marketStates(input: LiquidityInput): MarketState[] {
  const evidenceOf = evidenceByMarket(input.markets, input.sales, input.salesStats, input.now);
  const states: MarketState[] = input.markets.map((market) => {
    const evidence = evidenceOf.get(market) ?? null;
    const estimated = evidence !== null && evidence.sales >= MIN_SALES_FOR_ESTIMATE;
    return { market, ask: askOf(input.sides, market), evidence, estimated, times: null };
  });
  const reference = referencePrice(states, input.askPrice);
  for (const state of states) {
    if (!state.estimated) continue;
    const ahead = reference === null ? 0 : queueAhead(state.ask, reference);
    state.times = queueTimes(ahead, state.evidence!.unitsPerDay, state.evidence!.units);
  }
  return states;
}

function metricsRow(state: MarketState, now: number): LiquidityMetricsRow {
  const { ask, evidence, times } = state;
  return {
    market: state.market,
    salesPerDay: orNull(evidence, (found) => round2(found.unitsPerDay)),
    activeListings: orNull(ask, activeListings),
    bestAskUsdCents: bestAskOf(state),
    medianTimeToSellHours: orNull(times, (found) => round2(found.medianHours)),
    p90TimeToSellHours: orNull(times, (found) => round2(found.p90Hours)),
    salesDataAgeMinutes: orNull(evidence, (found) => ageMinutes(found.latestAt, now)),
    listingsDataAgeMinutes: orNull(ask, (found) => ageMinutes(found.fetchedAt, now)),
  };
}

function bestState(states: readonly MarketState[]): MarketState | null {
  let best: MarketState | null = null;
  for (const state of states) {
    if (state.times && (!best || state.times.medianHours < best.times!.medianHours)) best = state;
  }
  return best;
}

function marketWide(states: readonly MarketState[], rows: readonly LiquidityMetricsRow[]) {
  const withSales = states.filter((state) => state.evidence !== null);
  const withAsks = rows.filter((row) => row.activeListings !== null);
  const supply =
    withAsks.length > 0 ? withAsks.reduce((sum, row) => sum + row.activeListings!, 0) : null;
  const estimated = states.filter((state) => state.estimated).map((state) => state.evidence!);
  const rate = estimated.reduce((sum, evidence) => sum + evidence.unitsPerDay, 0);
  const units = estimated.reduce((sum, evidence) => sum + evidence.units, 0);
  const clearing =
    supply === null
      ? null
      : supply === 0
        ? { medianHours: 0, p90Hours: 0 }
        : queueTimes(supply - 1, rate, units);
  return {
    marketWideSalesPerDay:
      withSales.length > 0
        ? round2(withSales.reduce((sum, state) => sum + state.evidence!.unitsPerDay, 0))
        : null,
    marketWideListings: supply,
    marketsWithSales: withSales.length,
    marketsWithDepth: states.filter((state) => (state.ask?.levels.length ?? 0) > 0).length,
    marketWideMedianTimeToSellHours: orNull(rate > 0 ? clearing : null, (found) =>
      round2(found.medianHours),
    ),
    marketWideP90TimeToSellHours: orNull(rate > 0 ? clearing : null, (found) =>
      round2(found.p90Hours),
    ),
  };
}

/** The badge and the median time to sell alone, as the record has them (valuing many items). */
export function liquidityHeadline(
  input: LiquidityInput,
): Pick<LiquidityRecord, 'liquidityBadge' | 'medianTimeToSellHours'> {
  const best = bestState(marketStates(input));
  const median = best ? round2(best.times!.medianHours) : null;
  return {
    liquidityBadge: classify(median, best ? input.now - best.evidence!.latestAt : null),
    medianTimeToSellHours: median,
  };
}

export function liquidityRecord(input: LiquidityInput): LiquidityRecord {
  const { item, now } = input;
  const states = marketStates(input);
  const rows = states.map((state) => metricsRow(state, now));
  const best = bestState(states);
  const bestRow = best ? rows[states.indexOf(best)]! : null;
  const median = bestRow?.medianTimeToSellHours ?? null;
  return {
    canonicalItemId: item.id,
    marketHashName: item.marketHashName,
    liquidityBadge: classify(median, best ? now - best.evidence!.latestAt : null),
    confidence: confidenceOf(best, states, now),
    coverage: coverageOf(states),
    medianTimeToSellHours: median,
    p90TimeToSellHours: bestRow?.p90TimeToSellHours ?? null,
    bestMarketToList: best?.market ?? null,
    salesPerDay: bestRow?.salesPerDay ?? null,
    activeListings: bestRow?.activeListings ?? null,
    referenceAskUsdCents: referencePrice(states, input.askPrice),
    ...marketWide(states, rows),
    metrics: rows,
    notes: notesOf(states, now),
    calculatedAt: iso(now),
  };
}
