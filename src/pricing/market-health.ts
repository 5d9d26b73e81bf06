/**
 * Market health rows (`GET /v1/markets/health`, keyless). Rules (docs/api/pricing.md):
 * - status against the market's own cadence: live when the last successful fetch is at most
 *   2 cadences old, warn up to 6 cadences, stale beyond (or never).
 * - lastEventAt: the last successful fetch. listingsCount: listings behind the market's asks
 *   over all items (null when it has no ask rows). freshnessCoveragePct: share of the market's
 *   quoted items whose newest quote is fresh, 0–100 with one decimal (null with no rows).
 * - healthBars: 48 half-hour buckets aligned to UTC half-hours, the current one last. A bucket
 *   is null with no fetch records, 0 when no fetch succeeded, 1 when more than 10% failed,
 *   otherwise 2.
 */
import { HOUR, iso, MINUTE } from '../domain/clock.ts';
import type { MarketSides } from '../book/book.ts';
import type { FetchFailure } from '../domain/fetch-failure.ts';
import { STALE_AFTER_MS } from '../domain/freshness.ts';
import type { MarketId } from '../domain/markets.ts';
import type { FetchRecord } from '../domain/quote.ts';
import { quoteSize } from './snapshot.ts';

export type Liveness = 'live' | 'warn' | 'stale';
export type HealthBar = 0 | 1 | 2 | null;

export const BAR_WIDTH_MS = 30 * MINUTE;
export const BAR_COUNT = 48;
export const LIVE_WITHIN_CADENCES = 2;
export const WARN_WITHIN_CADENCES = 6;
export const HEALTH_WINDOW_MS = 24 * HOUR;

export interface MarketHealthRow {
  id: MarketId;
  status: Liveness;
  lastEventAt: string | null;
  listingsCount: number | null;
  freshnessCoveragePct: number | null;
  healthBars: HealthBar[];
  /** Extension: the newest fetch in the window that failed, whole or in part. */
  lastError: { at: string; kind: FetchFailure; detail: string | null } | null;
  /** Extension: why the market is not polled (null when it is). */
  note: string | null;
}

/** What the book says about one market. */
export interface MarketBookStats {
  askRows: number;
  listings: number;
  /** Newest fetchedAt of a quoted item on the market → how many quoted items have it. */
  quoteTimes: ReadonlyMap<number, number>;
}

export interface MarketHealthInput {
  market: MarketId;
  cadenceMs: number;
  lastSuccessAt: number | null;
  /** This market's fetch records (any order). */
  records: readonly FetchRecord[];
  book: MarketBookStats | undefined;
  note?: string | null;
}

export function liveness(lastSuccessAt: number | null, cadenceMs: number, now: number): Liveness {
  if (lastSuccessAt === null) return 'stale';
  const age = now - lastSuccessAt;
  if (age <= LIVE_WITHIN_CADENCES * cadenceMs) return 'live';
  if (age <= WARN_WITHIN_CADENCES * cadenceMs) return 'warn';
  return 'stale';
}

/** Per-market listing counts and quote times over every item of one game's book. */
export function collectMarketBookStats(
  items: Iterable<readonly MarketSides[]>,
): Map<MarketId, MarketBookStats> {
  const stats = new Map<MarketId, MarketBookStats & { quoteTimes: Map<number, number> }>();
  for (const sides of items) {
    for (const entry of sides) {
      const ask = entry.ask && entry.ask.levels.length > 0 ? entry.ask : null;
      const bid = entry.bid && entry.bid.levels.length > 0 ? entry.bid : null;
      if (!ask && !bid) continue;
      let held = stats.get(entry.market);
      if (!held) {
        stats.set(entry.market, (held = { askRows: 0, listings: 0, quoteTimes: new Map() }));
      }
      if (ask) {
        held.askRows += 1;
        held.listings += quoteSize(ask);
      }
      const time = Math.max(ask?.fetchedAt ?? 0, bid?.fetchedAt ?? 0);
      held.quoteTimes.set(time, (held.quoteTimes.get(time) ?? 0) + 1);
    }
  }
  return stats;
}

export function freshnessCoveragePct(
  stats: MarketBookStats | undefined,
  now: number,
): number | null {
  let fresh = 0;
  let total = 0;
  for (const [time, count] of stats?.quoteTimes ?? []) {
    total += count;
    if (time >= now - STALE_AFTER_MS) fresh += count;
  }
  return total === 0 ? null : Math.round((fresh / total) * 1000) / 10;
}

/** Start of the oldest of the 48 buckets; the newest bucket holds `now`. */
export function firstBarStart(now: number): number {
  return Math.floor(now / BAR_WIDTH_MS) * BAR_WIDTH_MS - (BAR_COUNT - 1) * BAR_WIDTH_MS;
}

export function healthBars(records: readonly FetchRecord[], now: number): HealthBar[] {
  const start = firstBarStart(now);
  const totals = new Array<number>(BAR_COUNT).fill(0);
  const successes = new Array<number>(BAR_COUNT).fill(0);
  for (const record of records) {
    if (record.startedAt < start || record.startedAt > now) continue;
    const index = Math.floor((record.startedAt - start) / BAR_WIDTH_MS);
    totals[index]! += 1;
    if (record.ok) successes[index]! += 1;
  }
  return totals.map((total, index) => {
    if (total === 0) return null;
    const ok = successes[index]!;
    if (ok === 0) return 0;
    return (total - ok) * 10 > total ? 1 : 2;
  });
}

export function marketHealthRow(input: MarketHealthInput, now: number): MarketHealthRow {
  const book = input.book;
  return {
    id: input.market,
    status: liveness(input.lastSuccessAt, input.cadenceMs, now),
    lastEventAt: input.lastSuccessAt === null ? null : iso(input.lastSuccessAt),
    listingsCount: book && book.askRows > 0 ? book.listings : null,
    freshnessCoveragePct: freshnessCoveragePct(book, now),
    healthBars: healthBars(input.records, now),
    lastError: lastError(input.records, now),
    note: input.note ?? null,
  };
}

/** The newest record in the health window carrying a failure kind. */
export function lastError(
  records: readonly FetchRecord[],
  now: number,
): MarketHealthRow['lastError'] {
  let newest: FetchRecord | null = null;
  for (const record of records) {
    if (
      record.failure === null ||
      record.startedAt > now ||
      record.startedAt < now - HEALTH_WINDOW_MS
    )
      continue;
    if (!newest || record.startedAt >= newest.startedAt) newest = record;
  }
  if (!newest || newest.failure === null) return null;
  return { at: iso(newest.startedAt), kind: newest.failure, detail: newest.detail };
}
