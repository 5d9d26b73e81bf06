import { MINUTE } from './clock.ts';

/** One staleness window for every market: stale when `fetchedAt` is MORE than 30 minutes old. */
export const STALE_AFTER_MS = 30 * MINUTE;

/** The first ms at which a quote fetched at `fetchedAt` is stale. */
export function staleFrom(fetchedAt: number): number {
  return fetchedAt + STALE_AFTER_MS + 1;
}

export function isStale(fetchedAt: number, now: number): boolean {
  return now >= staleFrom(fetchedAt);
}
