/**
 * Sales as a Poisson process per item × market: the daily rate grows steeply with popularity
 * (≈0.05/day for the rarest, ≈250/day for the most traded, scaled by the market's share).
 * Counts are drawn per fixed 10-minute bucket and times inside it, so any window can be
 * recomputed and every sale lands in exactly one window. Sale times are whole seconds, as
 * every wire format carries them. Prices sit between the market's
 * bid and ask at the moment of sale.
 */
import { DAY, MINUTE, SECOND } from '../../domain/clock.ts';
import type { MarketId } from '../../domain/markets.ts';
import type { SimItem } from './items.ts';
import { halfSpread, topPrices } from './price-model.ts';
import { SIM_PROFILES } from './profiles.ts';
import { mix, mix3, poisson, unit } from './random.ts';
import type { SimWorld } from './world.ts';

export interface SimSale {
  /** USD cents before conversion to the market's units. */
  usdCents: number;
  quantity: number;
  soldAt: number;
}

export const SALE_BUCKET_MS = 10 * MINUTE;
const SECONDS_PER_BUCKET = SALE_BUCKET_MS / SECOND;

export function dailySalesRate(market: MarketId, item: SimItem): number {
  return 0.05 * Math.exp(8.5 * item.popularity) * SIM_PROFILES[market].salesShare;
}

/** Sales with `fromMs < soldAt <= toMs`, oldest first. */
export function salesBetween(
  world: SimWorld,
  market: MarketId,
  item: SimItem,
  imKey: number,
  fromMs: number,
  toMs: number,
): SimSale[] {
  const rate = dailySalesRate(market, item);
  if (rate <= 0 || toMs <= fromMs) return [];
  const lambda = (rate * SALE_BUCKET_MS) / DAY;
  const noSale = Math.exp(-lambda);
  const sales: SimSale[] = [];
  const first = Math.floor((fromMs + 1) / SALE_BUCKET_MS);
  const last = Math.floor(toMs / SALE_BUCKET_MS);
  for (let bucket = first; bucket <= last; bucket += 1) {
    const bucketKey = mix3(imKey, 201, bucket);
    const u = unit(bucketKey);
    if (u <= noSale) continue;
    const count = poisson(lambda, u);
    for (let index = 0; index < count; index += 1) {
      const saleKey = mix(bucketKey, index + 1);
      const soldAt =
        bucket * SALE_BUCKET_MS + Math.floor(unit(saleKey) * SECONDS_PER_BUCKET) * SECOND;
      if (soldAt <= fromMs || soldAt > toMs) continue;
      sales.push(saleAt(world, market, item, imKey, saleKey, soldAt));
    }
  }
  return sales.sort((a, b) => a.soldAt - b.soldAt);
}

function saleAt(
  world: SimWorld,
  market: MarketId,
  item: SimItem,
  imKey: number,
  saleKey: number,
  soldAt: number,
): SimSale {
  const ask = topPrices(world, market, item, imKey, soldAt).askUsdCents;
  const discount = unit(mix(saleKey, 2)) * 1.5 * halfSpread(item, soldAt);
  const bulk = item.refCents < 200 && unit(mix(saleKey, 3)) < 0.08;
  return {
    usdCents: Math.max(1, ask * (1 - discount)),
    quantity: bulk ? 2 + Math.floor(unit(mix(saleKey, 4)) * 4) : 1,
    soldAt,
  };
}

/**
 * Sales as the markets' answers report them: no market's sale says how many units it was, so a
 * multi-unit sale is that many one-unit sales.
 */
export function salesAsReported(sales: SimSale[]): SimSale[] {
  if (sales.every((sale) => sale.quantity === 1)) return sales;
  return sales.flatMap((sale) =>
    Array.from({ length: sale.quantity }, () => ({ ...sale, quantity: 1 })),
  );
}
