/**
 * The two condensed views of a liquidity record: the summary of
 * `GET /v1/liquidity/summary/:name` and the per-item entry of the Enterprise bulk map (whose
 * mixed field casing is the public service's own, per shared/reference/service-conventions.md).
 */
import type { MarketId } from '../domain/markets.ts';
import {
  estimatedSaleTime,
  labelOf,
  scoreOf,
  type LiquidityBadge,
  type LiquidityLabel,
} from './classify.ts';
import type { LiquidityRecord } from './estimate.ts';
import type { Confidence } from './quality.ts';

export interface LiquiditySummary {
  marketHashName: string;
  liquidityBadge: LiquidityBadge;
  liquidity: LiquidityLabel;
  estimatedSaleTime: string;
  confidence: Confidence;
  score: number | null;
  bestMarketToList: MarketId | null;
  calculatedAt: string;
}

export interface BulkLiquidityEntry {
  market_hash_name: string;
  liquidity: LiquidityLabel;
  estimated_sale_time: string;
  liquidityBadge: LiquidityBadge;
  confidence: Confidence;
  score: number | null;
  bestMarketToList: MarketId | null;
  variants: Record<string, never>;
}

export function liquiditySummary(record: LiquidityRecord): LiquiditySummary {
  return {
    marketHashName: record.marketHashName,
    liquidityBadge: record.liquidityBadge,
    liquidity: labelOf(record.liquidityBadge),
    estimatedSaleTime: estimatedSaleTime(record.medianTimeToSellHours, record.p90TimeToSellHours),
    confidence: record.confidence,
    score: scoreOf(record.medianTimeToSellHours),
    bestMarketToList: record.bestMarketToList,
    calculatedAt: record.calculatedAt,
  };
}

/** Doppler phases are catalog items of their own, so each has its own entry; `variants` stays empty. */
export function bulkEntry(record: LiquidityRecord): BulkLiquidityEntry {
  const summary = liquiditySummary(record);
  return {
    market_hash_name: record.marketHashName,
    liquidity: summary.liquidity,
    estimated_sale_time: summary.estimatedSaleTime,
    liquidityBadge: record.liquidityBadge,
    confidence: record.confidence,
    score: summary.score,
    bestMarketToList: record.bestMarketToList,
    variants: {},
  };
}
