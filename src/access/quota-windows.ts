/** The two quota windows as pure UTC arithmetic: the clock minute and the calendar month. */
import { MINUTE, SECOND } from '../domain/clock.ts';

export interface WindowBounds {
  start: number;
  end: number;
}

export function minuteWindow(now: number): WindowBounds {
  const start = Math.floor(now / MINUTE) * MINUTE;
  return { start, end: start + MINUTE };
}

export function monthWindow(now: number): WindowBounds {
  const date = new Date(now);
  const year = date.getUTCFullYear();
  const month = date.getUTCMonth();
  return { start: Date.UTC(year, month, 1), end: Date.UTC(year, month + 1, 1) };
}

/** The UTC calendar month of `now` as `yyyymm` (the number in the Redis month keys). */
export function monthNumber(now: number): number {
  const date = new Date(now);
  return date.getUTCFullYear() * 100 + date.getUTCMonth() + 1;
}

/** Whole seconds until `end`, rounded up, never below 1. */
export function resetSeconds(end: number, now: number): number {
  return Math.max(1, Math.ceil((end - now) / SECOND));
}
