import { MINUTE } from './clock.ts';

/** One staleness window for every market: stale when `fetchedAt` is MORE than 30 minutes old. */
export const STALE_AFTER_MS = 30 * MINUTE;

export function isStale(fetchedAt: number, now: number): boolean {
  return now - fetchedAt > STALE_AFTER_MS;
}
