/**
 * History bucket arithmetic (pure): the three stored tiers, UTC alignment, the request's
 * interval rules, the point bound, and covering a time range with the coarsest whole buckets.
 * Every width divides a UTC day, so `floor(ms / width)` aligns to UTC boundaries.
 */
import { DAY, HOUR, MINUTE } from '../domain/clock.ts';

export const TIERS = ['10m', '1h', '1d'] as const;
export type Tier = (typeof TIERS)[number];

export const TIER_MS: Readonly<Record<Tier, number>> = {
  '10m': 10 * MINUTE,
  '1h': HOUR,
  '1d': DAY,
};

export const INTERVALS = ['MINUTE_5', 'MINUTE_15', 'HOUR_1', 'HOUR_6', 'DAY_1'] as const;
export type Interval = (typeof INTERVALS)[number];

/** The stored tier each requested interval is served from. */
export const INTERVAL_TIER: Readonly<Record<Interval, Tier>> = {
  MINUTE_5: '10m',
  MINUTE_15: '10m',
  HOUR_1: '1h',
  HOUR_6: '1h',
  DAY_1: '1d',
};

/** Without `interval`: a range up to 7 days is served at 10m, up to 180 days at 1h. */
export const AUTO_10M_MAX_MS = 7 * DAY;
export const AUTO_1H_MAX_MS = 180 * DAY;
export const MAX_HISTORY_POINTS = 10_000;

export function bucketIndex(ms: number, tier: Tier): number {
  return Math.floor(ms / TIER_MS[tier]);
}

export function bucketStart(ms: number, tier: Tier): number {
  return bucketIndex(ms, tier) * TIER_MS[tier];
}

export function autoTier(fromMs: number, toMs: number): Tier {
  const range = toMs - fromMs;
  if (range <= AUTO_10M_MAX_MS) return '10m';
  if (range <= AUTO_1H_MAX_MS) return '1h';
  return '1d';
}

export function tierFor(interval: Interval | undefined, fromMs: number, toMs: number): Tier {
  return interval === undefined ? autoTier(fromMs, toMs) : INTERVAL_TIER[interval];
}

/** Buckets a range can return: those overlapping [fromMs, toMs] (both ends inclusive). */
export function bucketCount(fromMs: number, toMs: number, tier: Tier): number {
  if (toMs < fromMs) return 0;
  return bucketIndex(toMs, tier) - bucketIndex(fromMs, tier) + 1;
}

/** Half-open bucket-start bounds [from, to) of the buckets overlapping [fromMs, toMs]. */
export function bucketBounds(fromMs: number, toMs: number, tier: Tier): [number, number] {
  return [bucketStart(fromMs, tier), bucketStart(toMs, tier) + TIER_MS[tier]];
}

/** One piece of a covered range: buckets of `tier` with start in [fromMs, toMs). */
export interface TierSpan {
  tier: Tier;
  fromMs: number;
  toMs: number;
}

/**
 * Covers [fromMs, toMs) (both 10m-aligned) with whole buckets, coarsest first where they fit:
 * e.g. 10m buckets up to the first hour, hours up to the first day, days, then back down.
 * Spans come back in time order. `tiers` limits the tiers used (finest must be 10m-aligned).
 */
export function coverRange(
  fromMs: number,
  toMs: number,
  tiers: readonly Tier[] = TIERS,
): TierSpan[] {
  const ordered = [...tiers].sort((a, b) => TIER_MS[b] - TIER_MS[a]);
  const out: TierSpan[] = [];
  cover(fromMs, toMs, ordered, out);
  return out;
}

function cover(fromMs: number, toMs: number, tiers: readonly Tier[], out: TierSpan[]): void {
  if (toMs <= fromMs) return;
  const [tier, ...finer] = tiers;
  if (tier === undefined) throw new Error(`range ${fromMs}..${toMs} is not aligned to 10m`);
  const width = TIER_MS[tier];
  const first = Math.ceil(fromMs / width) * width;
  const last = Math.floor(toMs / width) * width;
  if (finer.length === 0 && (first !== fromMs || last !== toMs)) {
    throw new Error(`range ${fromMs}..${toMs} is not aligned to ${tier}`);
  }
  if (first >= last) {
    cover(fromMs, toMs, finer, out);
    return;
  }
  cover(fromMs, first, finer, out);
  out.push({ tier, fromMs: first, toMs: last });
  cover(last, toMs, finer, out);
}
