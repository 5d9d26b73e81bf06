/**
 * The spec's liquidity badge (States: "Liquidity badge") and what is derived from it: the
 * lowercase label, the 0–100 score and the human sale-time range of the summary.
 *
 * Badge by median hours to sell on the best market: < 2 EXTREMELY_LIQUID, [2, 12) VERY_LIQUID,
 * [12, 48) LIQUID, [48, 168) ILLIQUID, [168, 720) VERY_ILLIQUID, ≥ 720 EXTREMELY_ILLIQUID.
 * Caps: sales data behind the best market older than 6 h → at most VERY_LIQUID; older than
 * 1 day → at most LIQUID. No estimate → INSUFFICIENT_DATA (label `unknown`, score null).
 */
import { DAY, HOUR } from '../domain/clock.ts';

export const BADGES = [
  'EXTREMELY_LIQUID',
  'VERY_LIQUID',
  'LIQUID',
  'ILLIQUID',
  'VERY_ILLIQUID',
  'EXTREMELY_ILLIQUID',
  'INSUFFICIENT_DATA',
] as const;
export type LiquidityBadge = (typeof BADGES)[number];

export const LABELS = [
  'extremely_liquid',
  'very_liquid',
  'liquid',
  'illiquid',
  'very_illiquid',
  'extremely_illiquid',
  'unknown',
] as const;
export type LiquidityLabel = (typeof LABELS)[number];

/** Upper hour bound (exclusive) of each timed badge, most liquid first. */
const BADGE_UPPER_HOURS: readonly [LiquidityBadge, number][] = [
  ['EXTREMELY_LIQUID', 2],
  ['VERY_LIQUID', 12],
  ['LIQUID', 48],
  ['ILLIQUID', 7 * 24],
  ['VERY_ILLIQUID', 30 * 24],
  ['EXTREMELY_ILLIQUID', Infinity],
];

export const CAP_VERY_LIQUID_AFTER_MS = 6 * HOUR;
export const CAP_LIQUID_AFTER_MS = DAY;

export function badgeForHours(medianHours: number): LiquidityBadge {
  return BADGE_UPPER_HOURS.find(([, upper]) => medianHours < upper)![0];
}

const rank = (badge: LiquidityBadge) => BADGES.indexOf(badge);

/** The badge for the best market's median, capped by the age of the sales data behind it. */
export function classify(medianHours: number | null, salesAgeMs: number | null): LiquidityBadge {
  if (medianHours === null) return 'INSUFFICIENT_DATA';
  const badge = badgeForHours(medianHours);
  const age = salesAgeMs ?? 0;
  const cap =
    age > CAP_LIQUID_AFTER_MS ? 'LIQUID' : age > CAP_VERY_LIQUID_AFTER_MS ? 'VERY_LIQUID' : null;
  return cap !== null && rank(badge) < rank(cap) ? cap : badge;
}

export function labelOf(badge: LiquidityBadge): LiquidityLabel {
  return badge === 'INSUFFICIENT_DATA' ? 'unknown' : (badge.toLowerCase() as LiquidityLabel);
}

/** Hours at which the score reaches 0 (90 days). */
const SCORE_ZERO_HOURS = 90 * 24;

/** 100 at an instant sale, falling with log(1 + hours), 0 at 90 days or more; null without data. */
export function scoreOf(medianHours: number | null): number | null {
  if (medianHours === null) return null;
  const fraction = Math.log1p(Math.max(0, medianHours)) / Math.log1p(SCORE_ZERO_HOURS);
  return Math.max(0, Math.min(100, Math.round(100 * (1 - fraction))));
}

/**
 * `"N - M hours"` while p90 is under 48 hours, else `"N - M days"`: N is the median rounded
 * down, M the p90 rounded up and at least N + 1. `"Insufficient data"` without an estimate.
 */
export function estimatedSaleTime(medianHours: number | null, p90Hours: number | null): string {
  if (medianHours === null || p90Hours === null) return 'Insufficient data';
  const inDays = p90Hours >= 48;
  const unit = inDays ? 24 : 1;
  const low = Math.floor(medianHours / unit);
  const high = Math.max(low + 1, Math.ceil(p90Hours / unit));
  return `${low} - ${high} ${inDays ? 'days' : 'hours'}`;
}
