/**
 * The dates a query may carry (`from`, `to`, `since`): an ISO 8601 date or date-time (a time
 * without an offset is UTC; the day must exist), or a time relative to now (`now-7d`). A bad
 * date is a 400 naming the parameter.
 */
import { DAY, HOUR, MINUTE } from './clock.ts';
import { badRequest } from './errors.ts';

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
