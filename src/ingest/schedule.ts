/**
 * Pure scheduling rules for the ingest runner (cadence, deterministic jitter, backoff) and the
 * timer port it schedules through, so tests can drive the loop without wall-clock waits.
 */
import { SECOND } from '../domain/clock.ts';
import type { Game } from '../domain/games.ts';
import type { MarketId } from '../domain/markets.ts';

/** Jitter never exceeds 10% of the cadence nor this. */
export const MAX_JITTER_MS = 30 * SECOND;
/** Backoff never exceeds this many cadences. */
export const BACKOFF_CAP_CADENCES = 4;

/** A stable offset in [0, min(10% of cadence, 30 s)) per (market, game): spreads the polls. */
export function jitterMs(market: MarketId, game: Game, cadenceMs: number): number {
  const span = Math.floor(Math.min(cadenceMs / 10, MAX_JITTER_MS));
  if (span <= 0) return 0;
  let hash = 0x811c9dc5;
  for (const char of `${market}:${game}`) {
    hash ^= char.charCodeAt(0);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash % span;
}

/**
 * Delay before retry number `consecutiveErrors` (1 = first retry): a quarter cadence (at least
 * 1 s), doubling each time, capped at 4 cadences.
 */
export function backoffMs(consecutiveErrors: number, cadenceMs: number): number {
  const base = Math.max(SECOND, Math.floor(cadenceMs / 4));
  const exponent = Math.min(Math.max(consecutiveErrors - 1, 0), 30);
  return Math.min(base * 2 ** exponent, cadenceMs * BACKOFF_CAP_CADENCES);
}

/**
 * After a failed commit (the store, not the market, failed: a pool busy at a takeover, a short
 * database outage): 1 s, doubling, never later than backoffMs, so a market whose first fetch
 * after a takeover could not be written is fetched again within seconds, not a quarter cadence.
 */
export function storeRetryMs(consecutiveErrors: number, cadenceMs: number): number {
  const exponent = Math.min(Math.max(consecutiveErrors - 1, 0), 30);
  return Math.min(SECOND * 2 ** exponent, backoffMs(consecutiveErrors, cadenceMs));
}

/** After a success: one cadence plus the market's jitter; after errors: the backoff. */
export function nextDelayMs(
  market: MarketId,
  game: Game,
  cadenceMs: number,
  consecutiveErrors: number,
): number {
  if (consecutiveErrors > 0) return backoffMs(consecutiveErrors, cadenceMs);
  return cadenceMs + jitterMs(market, game, cadenceMs);
}

export interface Timers {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/** Node timers, unref'd so a pending poll never keeps the process alive. */
export const nodeTimers: Timers = {
  setTimeout(callback, ms) {
    const handle = setTimeout(callback, ms);
    handle.unref();
    return handle;
  },
  clearTimeout(handle) {
    clearTimeout(handle as ReturnType<typeof setTimeout>);
  },
};
