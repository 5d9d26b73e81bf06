/** Time is injected: code never reads Date.now() directly, so rules are testable to the second. */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

export interface ManualClock extends Clock {
  set(ms: number | string): void;
  advance(ms: number): void;
}

export function manualClock(start: number | string = '2026-11-01T00:00:00Z'): ManualClock {
  let current = typeof start === 'string' ? Date.parse(start) : start;
  return {
    now: () => current,
    set(ms) {
      current = typeof ms === 'string' ? Date.parse(ms) : ms;
    },
    advance(ms) {
      current += ms;
    },
  };
}

export const SECOND = 1000;
export const MINUTE = 60 * SECOND;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;

/**
 * The last ISO strings made, by ms (a direct-mapped table): many figures of a body or a bulk
 * row share a time (one poll stamps every item it fetched), and `toISOString` costs more than
 * the lookup.
 */
const ISO_SLOTS = 256;
const isoKeys = new Float64Array(ISO_SLOTS).fill(Number.NaN);
const isoTexts: string[] = new Array<string>(ISO_SLOTS).fill('');

export function iso(ms: number): string {
  const slot = ms & (ISO_SLOTS - 1);
  if (isoKeys[slot] === ms) return isoTexts[slot]!;
  const text = new Date(ms).toISOString();
  isoKeys[slot] = ms;
  isoTexts[slot] = text;
  return text;
}

export function isoOrNull(ms: number | null | undefined): string | null {
  return ms == null ? null : new Date(ms).toISOString();
}
