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
import { hashString, mix, seedKey, unit, valueNoise } from './random.ts';
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

/**
 * The simulated world's rates at `timeMs` as money.ts wants them (micro-USD per one major
 * unit), for the seed given to `createSimAdapters`; ingest converts sim prices exactly with it.
 */
export function simFxRates(seed: number | string, timeMs: number): Record<string, number> {
  const key = seedKey(seed);
  const rates: Record<string, number> = {};
  for (const currency of Object.keys(SIM_FX_BASE)) {
    rates[currency] = Math.round(MICRO / unitsPerUsd(key, currency, timeMs));
  }
  return rates;
}

export function trueUsdCents(world: SimWorld, item: SimItem, timeMs: number): number {
  const [weekly, daily, hourly, minutely] = item.noiseKeys;
  const mood = 0.03 * valueNoise(world.seed, timeMs, 3 * DAY);
  const wander =
    0.12 * valueNoise(weekly, timeMs, 7 * DAY) +
    0.05 * valueNoise(daily, timeMs, DAY) +
    0.02 * valueNoise(hourly, timeMs, 2 * HOUR) +
    0.006 * valueNoise(minutely, timeMs, 10 * MINUTE);
  return item.refCents * Math.exp(mood + wander);
}

export function halfSpread(item: SimItem, timeMs: number): number {
  const jitter = 0.004 * valueNoise(item.noiseKeys[4], timeMs, HOUR);
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
