/**
 * The history endpoints' query rules, checked before any store read: dates, listing type and
 * its aliases, salesWindow (SALE_HISTORY only), the interval → stored tier mapping (or the
 * automatic choice by range) and the 10,000-point bound computed from range × tier × series.
 */
import { DAY } from '../domain/clock.ts';
import { parseDate } from '../domain/dates.ts';
import { badRequest } from '../domain/errors.ts';
import {
  bucketCount,
  MAX_HISTORY_POINTS,
  tierFor,
  type Interval,
  type Tier,
} from '../pricing/rollup-buckets.ts';
import { LISTING_TYPE_ALIASES, type ListingType } from '../pricing/rollup-points.ts';
import { DEFAULT_SALES_WINDOW, type SalesWindow } from '../pricing/rollup-volume.ts';

export const DEFAULT_HISTORY_RANGE_MS = 30 * DAY;

export interface HistoryQuery {
  from?: string;
  to?: string;
  listingType?: string;
  salesWindow?: SalesWindow;
  interval?: Interval;
}

export interface HistoryRequest {
  fromMs: number;
  toMs: number;
  listingType: ListingType;
  /** Set for SALE_HISTORY only. */
  salesWindow: SalesWindow | null;
  tier: Tier;
}

/**
 * Parses everything but the point bound. `from` defaults to 30 days before `to`, which
 * defaults to now (so to now − 30 days when neither is given).
 */
export function parseHistoryQuery(query: HistoryQuery, now: number): HistoryRequest {
  const listingType = LISTING_TYPE_ALIASES[query.listingType ?? 'SELL_OFFER'];
  if (!listingType) throw badRequest(['listingType is not a known listing type']);
  if (query.salesWindow !== undefined && listingType !== 'SALE_HISTORY') {
    throw badRequest(['salesWindow is only accepted with listingType SALE_HISTORY']);
  }
  const toMs = query.to === undefined ? now : parseDate(query.to, 'to', now);
  const fromMs =
    query.from === undefined ? toMs - DEFAULT_HISTORY_RANGE_MS : parseDate(query.from, 'from', now);
  if (fromMs > toMs) throw badRequest(['from must not be after to']);
  return {
    fromMs,
    toMs,
    listingType,
    salesWindow:
      listingType === 'SALE_HISTORY' ? (query.salesWindow ?? DEFAULT_SALES_WINDOW) : null,
    tier: tierFor(query.interval, fromMs, toMs),
  };
}

/** 400 when `series` series of the request's buckets would exceed 10,000 points. */
export function checkPointBound(request: HistoryRequest, series: number): void {
  const buckets = bucketCount(request.fromMs, request.toMs, request.tier);
  const points = buckets * series;
  if (points <= MAX_HISTORY_POINTS) return;
  throw badRequest([
    `history request covers ${points} points (${buckets} ${request.tier} buckets × ${series} series), more than ${MAX_HISTORY_POINTS}; narrow the range or use a coarser interval`,
  ]);
}
