/**
 * The history endpoints' query rules, checked before any store read: dates, listing type and
 * its aliases, salesWindow (SALE_HISTORY only), the interval → stored tier mapping (or the
 * automatic choice by range) and the 10,000-point bound computed from range × tier × series.
 */
import { DAY, HOUR, MINUTE } from '../domain/clock.ts';
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

/** ISO 8601 date or date-time; a time without an offset is UTC. */
const ISO_DATE =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?)?$/i;

function hasRealDay(year: number, month: number, day: number): boolean {
  return (
    month >= 1 && month <= 12 && day >= 1 && day <= new Date(Date.UTC(year, month, 0)).getUTCDate()
  );
}

export function parseIsoDate(value: string, name: string): number {
  const text = value.trim();
  const match = ISO_DATE.exec(text);
  let ms = Number.NaN;
  if (match && hasRealDay(Number(match[1]), Number(match[2]), Number(match[3]))) {
    const normal = text.replace(' ', 'T');
    ms = Date.parse(match[4] !== undefined && match[7] === undefined ? `${normal}Z` : normal);
  }
  if (!Number.isFinite(ms)) {
    throw badRequest([
      `${name} must be a valid ISO 8601 date, e.g. 2026-11-01T00:00:00Z, or a time before now, e.g. now-7d`,
    ]);
  }
  return ms;
}

/** `now`, or `now-` and a whole number of minutes, hours or days: `now-90m`, `now-24h`, `now-7d`. */
const RELATIVE_DATE = /^now(?:-(\d{1,6})([mhd]))?$/i;
const RELATIVE_UNIT_MS: Readonly<Record<string, number>> = { m: MINUTE, h: HOUR, d: DAY };

/** An ISO 8601 date or a time relative to `now` (RELATIVE_DATE). */
export function parseDate(value: string, name: string, now: number): number {
  const relative = RELATIVE_DATE.exec(value.trim());
  if (!relative) return parseIsoDate(value, name);
  const [, count, unit] = relative;
  return count === undefined ? now : now - Number(count) * RELATIVE_UNIT_MS[unit!.toLowerCase()]!;
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
