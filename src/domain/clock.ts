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

export function iso(ms: number): string {
  return new Date(ms).toISOString();
}

export function isoOrNull(ms: number | null | undefined): string | null {
  return ms == null ? null : new Date(ms).toISOString();
}
