/**
 * The market-latency report (`GET /v1/status/market-latency`, snake_case) over the last 24 h of
 * fetch records. Latency of one fetch = ingestedAt − startedAt: from the start of the upstream
 * request until its data was committed (fetch plus ingest pipeline). Only successful fetches
 * with an ingest time have a latency. avg is rounded to whole ms; p95/p99 are nearest-rank.
 * error_rate = failed / all fetches; slo_breach_rate = fetches that failed or took longer than
 * SLO_LATENCY_MS / all fetches; both rounded to 4 decimals. Rates and latencies are null when
 * there is nothing to measure; fetch_count is then 0.
 */
import { DAY, iso, SECOND } from '../domain/clock.ts';
import type { FetchFailure } from '../domain/fetch-failure.ts';
import type { MarketId } from '../domain/markets.ts';
import type { FetchRecord } from '../domain/quote.ts';
import { nearestRank, roundedMean } from './stats.ts';

export const LATENCY_WINDOW_MS = DAY;
export const SLO_LATENCY_MS = 10 * SECOND;

export interface MarketLatency {
  market: MarketId;
  avg_latency_ms: number | null;
  p95_latency_ms: number | null;
  p99_latency_ms: number | null;
  fetch_count: number;
  error_rate: number | null;
  slo_breach_rate: number | null;
  /** Extension: share of fetches that failed (whole or in part) with each kind. */
  error_rates_by_kind: Partial<Record<FetchFailure, number>>;
  /** Extension: unmapped names over observations, null with no observations. */
  unmapped_rate: number | null;
}

export interface MarketLatencyReport {
  markets: MarketLatency[];
  window_hours: number;
  measured_at: string;
}

/** Fetch-to-ingest latency of a successful fetch, else null. */
export function fetchLatency(record: FetchRecord): number | null {
  if (!record.ok || record.ingestedAt === null) return null;
  return Math.max(0, record.ingestedAt - record.startedAt);
}

const rate = (part: number, whole: number) =>
  whole === 0 ? null : Math.round((part / whole) * 10_000) / 10_000;

export function marketLatency(market: MarketId, records: readonly FetchRecord[]): MarketLatency {
  const latencies: number[] = [];
  let failures = 0;
  let breaches = 0;
  let observed = 0;
  let unmapped = 0;
  const kinds = new Map<FetchFailure, number>();
  for (const record of records) {
    const latency = fetchLatency(record);
    if (!record.ok) failures += 1;
    if (record.failure !== null) kinds.set(record.failure, (kinds.get(record.failure) ?? 0) + 1);
    observed += record.observationCount;
    unmapped += record.unmappedCount;
    if (latency === null || latency > SLO_LATENCY_MS) breaches += 1;
    if (latency !== null) latencies.push(latency);
  }
  latencies.sort((a, b) => a - b);
  return {
    market,
    avg_latency_ms: latencies.length === 0 ? null : roundedMean(latencies),
    p95_latency_ms: nearestRank(latencies, 95),
    p99_latency_ms: nearestRank(latencies, 99),
    fetch_count: records.length,
    error_rate: rate(failures, records.length),
    slo_breach_rate: rate(breaches, records.length),
    error_rates_by_kind: Object.fromEntries(
      [...kinds]
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([kind, count]) => [kind, rate(count, records.length)!]),
    ),
    unmapped_rate: rate(unmapped, observed),
  };
}

/** Report for `markets` from records of one game; records outside the window are ignored. */
export function latencyReport(
  markets: readonly MarketId[],
  records: readonly FetchRecord[],
  now: number,
): MarketLatencyReport {
  const since = now - LATENCY_WINDOW_MS;
  const byMarket = new Map<MarketId, FetchRecord[]>(markets.map((market) => [market, []]));
  for (const record of records) {
    if (record.startedAt < since || record.startedAt > now) continue;
    byMarket.get(record.market)?.push(record);
  }
  return {
    markets: markets.map((market) => marketLatency(market, byMarket.get(market) ?? [])),
    window_hours: LATENCY_WINDOW_MS / (3600 * SECOND),
    measured_at: iso(now),
  };
}
