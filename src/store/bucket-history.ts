/**
 * Attribute-bucket history (pure): what an ingest observes of a bucket, and what one stored
 * 10-minute / hourly / daily row of a bucket holds. A row is an OHLC of the bucket's ask (its
 * cheapest listing at each observation), the sum and count behind avgAskCents, the bid, listing
 * and order counts at the last observation, and the first and last observation times. Rows
 * merge the way the stores' upserts do: an observation at a time the row already counted
 * (its first or last) changes nothing, so a re-sent batch is not counted twice.
 */
import type { Cents } from '../domain/money.ts';
import { bucketStart, TIER_MS, type Tier } from '../pricing/rollup-buckets.ts';

/** A window may cover at most this many buckets of its granularity. */
export const MAX_ATTRIBUTE_BUCKETS = 10_000;

export interface BucketObservation {
  bucketId: string;
  at: number;
  askCents: Cents;
  bidCents: Cents | null;
  askListingCount: number;
  bidOrderCount: number | null;
}

export interface BucketRollup {
  bucketId: string;
  start: number;
  open: Cents;
  high: Cents;
  low: Cents;
  close: Cents;
  askSum: number;
  askN: number;
  closeBid: Cents | null;
  askCount: number;
  bidCount: number | null;
  firstAt: number;
  lastAt: number;
}

export function rollupOf(observation: BucketObservation, tier: Tier): BucketRollup {
  const price = observation.askCents;
  return {
    bucketId: observation.bucketId,
    start: bucketStart(observation.at, tier),
    open: price,
    high: price,
    low: price,
    close: price,
    askSum: price,
    askN: 1,
    closeBid: observation.bidCents,
    askCount: observation.askListingCount,
    bidCount: observation.bidOrderCount,
    firstAt: observation.at,
    lastAt: observation.at,
  };
}

/** `held` with `next` merged in (a new object); the stores' upserts do the same. */
export function mergeRollup(held: BucketRollup, next: BucketRollup): BucketRollup {
  if (next.firstAt === held.firstAt || next.firstAt === held.lastAt) return held;
  const later = next.lastAt >= held.lastAt;
  return {
    ...held,
    open: next.firstAt < held.firstAt ? next.open : held.open,
    high: Math.max(held.high, next.high),
    low: Math.min(held.low, next.low),
    close: later ? next.close : held.close,
    askSum: held.askSum + next.askSum,
    askN: held.askN + next.askN,
    closeBid: later ? next.closeBid : held.closeBid,
    askCount: later ? next.askCount : held.askCount,
    bidCount: later ? next.bidCount : held.bidCount,
    firstAt: Math.min(held.firstAt, next.firstAt),
    lastAt: Math.max(held.lastAt, next.lastAt),
  };
}

/** Buckets of `tier` a window [fromMs, toMs] touches. */
export function windowBuckets(fromMs: number, toMs: number, tier: Tier): number {
  if (toMs < fromMs) return 0;
  return Math.floor(toMs / TIER_MS[tier]) - Math.floor(fromMs / TIER_MS[tier]) + 1;
}

/** The served point of a stored row (avg rounds half up, as stats.ts). */
export function pointOf(row: BucketRollup) {
  return {
    bucketStart: row.start,
    openAskCents: row.open,
    highAskCents: row.high,
    lowAskCents: row.low,
    closeAskCents: row.close,
    avgAskCents: Math.floor((2 * row.askSum + row.askN) / (2 * row.askN)),
    closeBidCents: row.closeBid,
    askListingCount: row.askCount,
    bidOrderCount: row.bidCount,
    firstObservedAt: row.firstAt,
    lastObservedAt: row.lastAt,
  };
}
