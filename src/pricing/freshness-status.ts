/**
 * The freshness report (`GET /v1/status/freshness`, snake_case). Per market, the age of the
 * latest successful fetch: healthy ≤ 5 min, degraded > 5 up to 15 min, stale > 15 min; a
 * market that never delivered is stale with null delay and last_update. Overall: stale when
 * more than half the markets are stale; degraded when any is stale or more than 30% are
 * degraded; otherwise healthy (an empty market list is healthy by that rule).
 */
import { iso, isoOrNull, MINUTE } from '../domain/clock.ts';
import type { MarketId } from '../domain/markets.ts';

export type FreshnessStatus = 'healthy' | 'degraded' | 'stale';

export const HEALTHY_WITHIN_MS = 5 * MINUTE;
export const DEGRADED_WITHIN_MS = 15 * MINUTE;

export interface MarketFreshness {
  market: MarketId;
  delay_seconds: number | null;
  last_update: string | null;
  status: FreshnessStatus;
}

export interface FreshnessReport {
  markets: MarketFreshness[];
  overall_status: FreshnessStatus;
  checked_at: string;
}

export interface LastUpdate {
  market: MarketId;
  /** ms epoch of the latest successful fetch, null when the market never delivered. */
  lastUpdate: number | null;
}

export function freshnessStatus(lastUpdate: number | null, now: number): FreshnessStatus {
  if (lastUpdate === null) return 'stale';
  const age = now - lastUpdate;
  if (age <= HEALTHY_WITHIN_MS) return 'healthy';
  if (age <= DEGRADED_WITHIN_MS) return 'degraded';
  return 'stale';
}

export function overallStatus(statuses: readonly FreshnessStatus[]): FreshnessStatus {
  const count = statuses.length;
  const stale = statuses.filter((status) => status === 'stale').length;
  const degraded = statuses.filter((status) => status === 'degraded').length;
  if (stale * 2 > count) return 'stale';
  if (stale > 0 || degraded * 10 > count * 3) return 'degraded';
  return 'healthy';
}

export function marketFreshness(entry: LastUpdate, now: number): MarketFreshness {
  const { market, lastUpdate } = entry;
  return {
    market,
    delay_seconds: lastUpdate === null ? null : Math.max(0, Math.floor((now - lastUpdate) / 1000)),
    last_update: isoOrNull(lastUpdate),
    status: freshnessStatus(lastUpdate, now),
  };
}

export function freshnessReport(entries: readonly LastUpdate[], now: number): FreshnessReport {
  const markets = entries.map((entry) => marketFreshness(entry, now));
  return {
    markets,
    overall_status: overallStatus(markets.map((row) => row.status)),
    checked_at: iso(now),
  };
}
