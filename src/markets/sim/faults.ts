/**
 * When a simulated market misbehaves, as a pure function of time, so health and staleness move
 * visibly and reproducibly:
 * - outages: each 6-hour slot may hold one 20-90 minute window (about `outagesPerDay` a day);
 * - transient errors: about 2% of minutes answer 429/502;
 * - slow spells: about one 2-hour slot in eight has a 5-30 minute spell where responses take
 *   8-30 s and the data served lags 2-8 minutes behind.
 * Otherwise latency is the market's typical time, ±40%. None of it before `world.faultsFrom`.
 */
import { HOUR, MINUTE, SECOND } from '../../domain/clock.ts';
import type { FetchFailure } from '../../domain/fetch-failure.ts';
import type { MarketId } from '../../domain/markets.ts';
import { SIM_PROFILES } from './profiles.ts';
import { mix, mix3, unit } from './random.ts';
import type { SimWorld } from './world.ts';

export type SimCondition =
  | { kind: 'up'; latencyMs: number; lagMs: number }
  | { kind: 'down'; latencyMs: number; reason: string; failure: FetchFailure };

const OUTAGE_SLOT_MS = 6 * HOUR;
const SLOW_SLOT_MS = 2 * HOUR;

interface Window {
  start: number;
  end: number;
}

function outageIn(key: number, slot: number, perSlot: number): Window | null {
  if (unit(mix3(key, 401, slot)) >= perSlot) return null;
  const start = slot * OUTAGE_SLOT_MS + Math.floor(unit(mix3(key, 402, slot)) * OUTAGE_SLOT_MS);
  const minutes = 20 + Math.floor(unit(mix3(key, 403, slot)) * 71);
  return { start, end: start + minutes * MINUTE };
}

function slowIn(key: number, slot: number): Window | null {
  if (unit(mix3(key, 411, slot)) >= 0.125) return null;
  const start = slot * SLOW_SLOT_MS + Math.floor(unit(mix3(key, 412, slot)) * SLOW_SLOT_MS);
  const minutes = 5 + Math.floor(unit(mix3(key, 413, slot)) * 26);
  return { start, end: start + minutes * MINUTE };
}

function inside(window: Window | null, timeMs: number): boolean {
  return window !== null && timeMs >= window.start && timeMs < window.end;
}

function faultsAt(world: SimWorld, timeMs: number): boolean {
  return world.faults && timeMs >= world.faultsFrom;
}

/** The outage window covering `timeMs`, if any (windows may spill into the next slot). */
export function outageAt(world: SimWorld, market: MarketId, timeMs: number): Window | null {
  if (!faultsAt(world, timeMs)) return null;
  const key = world.marketKeys[market];
  const perSlot = Math.min(1, SIM_PROFILES[market].outagesPerDay / 4);
  const slot = Math.floor(timeMs / OUTAGE_SLOT_MS);
  for (const candidate of [slot, slot - 1]) {
    const window = outageIn(key, candidate, perSlot);
    if (inside(window, timeMs)) return window;
  }
  return null;
}

/** The slot whose slow spell covers `timeMs`, or null. */
function slowSpellAt(key: number, timeMs: number): number | null {
  const slot = Math.floor(timeMs / SLOW_SLOT_MS);
  if (inside(slowIn(key, slot), timeMs)) return slot;
  return inside(slowIn(key, slot - 1), timeMs) ? slot - 1 : null;
}

export function conditionAt(world: SimWorld, market: MarketId, timeMs: number): SimCondition {
  const key = world.marketKeys[market];
  const minute = Math.floor(timeMs / MINUTE);
  const typical = SIM_PROFILES[market].latencyMs * (0.6 + 0.8 * unit(mix3(key, 421, minute)));
  const latencyMs = Math.round(typical);
  if (!faultsAt(world, timeMs)) return { kind: 'up', latencyMs, lagMs: 0 };
  if (outageAt(world, market, timeMs)) {
    return {
      kind: 'down',
      latencyMs: 30 * SECOND,
      reason: 'HTTP 503 Service Unavailable',
      failure: 'http_5xx',
    };
  }
  if (unit(mix3(key, 422, minute)) < 0.02) {
    const limited = unit(mix(key, minute)) < 0.5;
    const reason = limited ? 'HTTP 429 Too Many Requests' : 'HTTP 502 Bad Gateway';
    return { kind: 'down', latencyMs, reason, failure: limited ? 'rate_limited' : 'http_5xx' };
  }
  const spell = slowSpellAt(key, timeMs);
  if (spell !== null) {
    return {
      kind: 'up',
      latencyMs: 8 * SECOND + Math.floor(unit(mix3(key, 423, minute)) * 22 * SECOND),
      lagMs: 2 * MINUTE + Math.floor(unit(mix3(key, 424, spell)) * 7) * MINUTE,
    };
  }
  return { kind: 'up', latencyMs, lagMs: 0 };
}
