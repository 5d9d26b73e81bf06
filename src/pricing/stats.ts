/**
 * Plain statistics over integer cent prices and millisecond latencies. Rounding rules:
 * averages and even-count medians round half up to whole cents; stdDev is the population
 * standard deviation rounded to 2 decimals; percentiles use the nearest-rank method.
 */
import type { Cents } from '../domain/money.ts';

export interface PriceStats {
  minPrice: Cents;
  maxPrice: Cents;
  avgPrice: Cents;
  medianPrice: Cents;
  stdDev: number;
}

/** Mean of non-negative integers, rounded half up. */
export function roundedMean(values: readonly number[]): number {
  let sum = 0;
  for (const value of values) sum += value;
  return Math.floor((2 * sum + values.length) / (2 * values.length));
}

/** Median of ascending non-negative integers; an even count averages the middle two, half up. */
export function roundedMedian(sorted: readonly number[]): number {
  const middle = sorted.length >> 1;
  if (sorted.length % 2 === 1) return sorted[middle]!;
  return Math.floor((sorted[middle - 1]! + sorted[middle]! + 1) / 2);
}

/** Population standard deviation, rounded to 2 decimals. */
export function populationStdDev(values: readonly number[]): number {
  let sum = 0;
  for (const value of values) sum += value;
  const mean = sum / values.length;
  let squares = 0;
  for (const value of values) squares += (value - mean) ** 2;
  return Math.round(Math.sqrt(squares / values.length) * 100) / 100;
}

/** Statistics of a set of prices; null when the set is empty. */
export function priceStats(prices: readonly Cents[]): PriceStats | null {
  if (prices.length === 0) return null;
  const sorted = [...prices].sort((a, b) => a - b);
  return {
    minPrice: sorted[0]!,
    maxPrice: sorted[sorted.length - 1]!,
    avgPrice: roundedMean(sorted),
    medianPrice: roundedMedian(sorted),
    stdDev: populationStdDev(sorted),
  };
}

/**
 * Nearest-rank percentile of ascending values: the smallest value with at least `percent`% of
 * the values at or below it (rank = ceil(percent × n / 100)). null for an empty list.
 */
export function nearestRank(sorted: readonly number[], percent: number): number | null {
  if (sorted.length === 0) return null;
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil((percent * sorted.length) / 100)));
  return sorted[rank - 1]!;
}
