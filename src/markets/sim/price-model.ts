/**
 * The price model: each item has a true USD price that wanders smoothly around its reference
 * price (value noise at 7-day, 1-day, 2-hour and 10-minute scales plus a market-wide mood);
 * each market quotes it at its own level with a small per-item offset and a popularity-driven
 * spread. World FX rates (CNY ~7.1, EUR ~0.92 per USD) drift by about ±1%.
 */
import { DAY, HOUR, MINUTE } from '../../domain/clock.ts';
import type { MarketId } from '../../domain/markets.ts';
import { MICRO } from '../../domain/money.ts';
import type { SimItem } from './items.ts';
import { SIM_PROFILES } from './profiles.ts';
import { hashString, mix, unit, valueNoise } from './random.ts';
import type { SimWorld } from './world.ts';

/** Units of each simulated currency per USD, before drift. */
export const SIM_FX_BASE: Readonly<Record<string, number>> = { USD: 1, CNY: 7.1, EUR: 0.92 };

export function unitsPerUsd(seed: number, currency: string, timeMs: number): number {
  const base = SIM_FX_BASE[currency] ?? 1;
  if (currency === 'USD') return 1;
  const key = mix(seed, hashString(currency));
  const drift = 0.008 * valueNoise(key, timeMs, DAY) + 0.002 * valueNoise(key ^ 1, timeMs, HOUR);
  return base * (1 + drift);
}

/** The simulated world's rate as money.ts wants it: micro-USD per one major unit. */
export function simUsdMicroPerUnit(seed: number, currency: string, timeMs: number): number {
  return Math.round(MICRO / unitsPerUsd(seed, currency, timeMs));
}

export function trueUsdCents(world: SimWorld, item: SimItem, timeMs: number): number {
  const key = item.key;
  const mood = 0.03 * valueNoise(world.seed, timeMs, 3 * DAY);
  const wander =
    0.12 * valueNoise(mix(key, 11), timeMs, 7 * DAY) +
    0.05 * valueNoise(mix(key, 12), timeMs, DAY) +
    0.02 * valueNoise(mix(key, 13), timeMs, 2 * HOUR) +
    0.006 * valueNoise(mix(key, 14), timeMs, 10 * MINUTE);
  return item.refCents * Math.exp(mood + wander);
}

export function halfSpread(item: SimItem, timeMs: number): number {
  const jitter = 0.004 * valueNoise(mix(item.key, 21), timeMs, HOUR);
  return Math.max(0.002, 0.004 + 0.035 * (1 - item.popularity) + jitter);
}

/** This market's premium or discount on this item: a fixed part and a slow daily wobble. */
function marketOffset(itemMarketKey: number, timeMs: number, salt: number): number {
  const fixed = (unit(mix(itemMarketKey, 1)) - 0.5) * 0.06;
  return 1 + fixed + 0.015 * valueNoise(mix(itemMarketKey, salt), timeMs, DAY);
}

export function itemMarketKey(world: SimWorld, market: MarketId, item: SimItem): number {
  return mix(item.key, world.marketKeys[market]);
}

export interface TopPrices {
  askUsdCents: number;
  /** null on markets without buy orders. */
  bidUsdCents: number | null;
}

export function topPrices(
  world: SimWorld,
  market: MarketId,
  item: SimItem,
  imKey: number,
  timeMs: number,
): TopPrices {
  const profile = SIM_PROFILES[market];
  const truth = trueUsdCents(world, item, timeMs);
  const spread = halfSpread(item, timeMs);
  const askUsdCents = truth * profile.askLevel * marketOffset(imKey, timeMs, 2) * (1 + spread);
  const bidUsdCents =
    profile.bidLevel === null
      ? null
      : truth * profile.bidLevel * marketOffset(imKey, timeMs, 3) * (1 - spread);
  return { askUsdCents, bidUsdCents };
}
