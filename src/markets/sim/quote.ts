/**
 * One market's book for one item at one time, in the market's native integer units: whether
 * the market lists the item at all (popularity-weighted coverage, rare items flicker out of
 * stock, Doppler phase entries only where the market quotes phases), the ask ladder and listing count, and the bid ladder and order count on bid markets.
 * The book holds between change events (quote-changes.ts: every few minutes for popular items,
 * hours for the long tail) and shows the price model, ladder shape and exchange rate of its last
 * change. Now and then one seller lists a single unit 10-20% under the market for 20 minutes (a
 * quick sale), which is where cross-market arbitrage comes from: at any moment about one book in
 * 200 carries one.
 */
import { HOUR, MINUTE } from '../../domain/clock.ts';
import type { MarketId } from '../../domain/markets.ts';
import type { RawLevel } from '../../domain/observation.ts';
import { MARKET_INFO } from '../registry.ts';
import type { SimItem } from './items.ts';
import { topPrices, unitsPerUsd } from './price-model.ts';
import { lastChangeAt } from './quote-changes.ts';
import { SIM_PROFILES } from './profiles.ts';
import { mix, mix3, uniform, unit } from './random.ts';
import type { SimQuote } from './sim-market.ts';
import type { SimWorld } from './world.ts';

export type { SimQuote } from './sim-market.ts';

const UNDERCUT_PERIOD_MS = 20 * MINUTE;
/** Chance that a market's book for an item holds an underpriced unit in a given 20 minutes. */
const UNDERCUT_CHANCE = 0.005;
const STOCK_PERIOD_MS = 6 * HOUR;
const MAX_LEVELS = 10;

export function isListed(market: MarketId, item: SimItem, imKey: number, timeMs: number): boolean {
  if (item.item.variantOf !== undefined && !SIM_PROFILES[market].quotesPhases) return false;
  const reach = SIM_PROFILES[market].coverage * (0.3 + 0.7 * Math.sqrt(item.popularity));
  if (uniform(imKey, 101) >= reach) return false;
  if (item.popularity >= 0.3) return true;
  const outOfStock = 0.2 * (1 - item.popularity / 0.3);
  return uniform(mix(imKey, 102), Math.floor(timeMs / STOCK_PERIOD_MS)) >= outOfStock;
}

/** Largest quantity one level holds: cheap popular items stack up, expensive ones are single. */
function maxQuantity(item: SimItem): number {
  const perPopularity = item.refCents < 500 ? 25 : item.refCents < 5000 ? 8 : 2;
  return 1 + Math.ceil(perPopularity * item.popularity);
}

function ladderDepth(shapeKey: number, item: SimItem): number {
  return Math.min(MAX_LEVELS, 3 + Math.floor(unit(mix(shapeKey, 99)) * (1 + 7 * item.popularity)));
}

function ladder(
  shapeKey: number,
  item: SimItem,
  top: number,
  depth: number,
  direction: 1 | -1,
  countsOrders: boolean,
): RawLevel[] {
  const levels: RawLevel[] = [];
  const maxQty = maxQuantity(item);
  let price = top;
  for (let index = 0; index < depth && price >= 1; index += 1) {
    const hash = mix(shapeKey, index);
    const quantity = 1 + Math.floor(unit(hash) * maxQty);
    const perOrder = direction === 1 ? 1 : 1 + Math.floor(unit(mix(hash, 5)) * 3);
    const orders = countsOrders ? Math.ceil(quantity / perOrder) : null;
    levels.push({ price, quantity, orders });
    const gap = 0.002 + 0.02 * unit(mix(hash, 7)) * (1.5 - item.popularity);
    const next = Math.round(price * (1 + direction * gap));
    price = direction === 1 ? Math.max(price + 1, next) : Math.min(price - 1, next);
  }
  return levels;
}

function tail(shapeKey: number, item: SimItem, salt: number): number {
  return Math.floor(unit(mix(shapeKey, salt)) * item.popularity * 30 * maxQuantity(item));
}

function sum(levels: RawLevel[], field: 'quantity' | 'orders'): number {
  let total = 0;
  for (const level of levels) total += level[field] ?? level.quantity;
  return total;
}

/** The price of this period's underpriced unit, 10-20% under `askTop`, or null (most periods). */
export function undercutPrice(imKey: number, timeMs: number, askTop: number): number | null {
  const period = Math.floor(timeMs / UNDERCUT_PERIOD_MS);
  if (unit(mix3(imKey, 107, period)) >= UNDERCUT_CHANCE) return null;
  const price = Math.round(askTop * (0.8 + 0.1 * unit(mix3(imKey, 108, period))));
  return price >= 1 && price < askTop ? price : null;
}

/** Native units per USD cent at `changedAt`, from the rate `nativePerUsdCent` in force at `timeMs`. */
function rateAt(
  world: SimWorld,
  market: MarketId,
  nativePerUsdCent: number,
  timeMs: number,
  changedAt: number,
): number {
  const currency = MARKET_INFO[market].currency;
  if (currency === 'USD' || changedAt === timeMs) return nativePerUsdCent;
  const drift =
    unitsPerUsd(world.seed, currency, changedAt) / unitsPerUsd(world.seed, currency, timeMs);
  return nativePerUsdCent * drift;
}

/**
 * The item's quote at `timeMs`: the book of its last change; `nativePerUsdCent` converts USD
 * cents to the market's native units at `timeMs`.
 */
export function quoteAt(
  world: SimWorld,
  market: MarketId,
  item: SimItem,
  imKey: number,
  timeMs: number,
  nativePerUsdCent: number,
): SimQuote {
  const profile = SIM_PROFILES[market];
  const changedAt = world.quotesHold ? lastChangeAt(imKey, item.popularity, timeMs) : timeMs;
  const tops = topPrices(world, market, item, imKey, changedAt);
  const shapeKey = mix3(imKey, 103, changedAt);
  const perUsdCent = rateAt(world, market, nativePerUsdCent, timeMs, changedAt);
  const askTop = Math.max(1, Math.round(tops.askUsdCents * perUsdCent));
  const full = ladder(shapeKey, item, askTop, ladderDepth(shapeKey, item), 1, profile.countsOrders);
  const undercut = undercutPrice(imKey, timeMs, askTop);
  if (undercut !== null)
    full.unshift({ price: undercut, quantity: 1, orders: profile.countsOrders ? 1 : null });
  const listingCount = sum(full, 'quantity') + tail(shapeKey, item, 104);
  const ask = full;
  const bestAsk = ask[0]!.price;
  if (tops.bidUsdCents === null) {
    return { ask, listingCount, bid: null, orderCount: null };
  }
  const bidKey = mix(shapeKey, 105);
  const hasOrders = unit(mix(bidKey, 1)) < 0.55 + 0.45 * item.popularity;
  const bidTop = Math.min(bestAsk - 1, Math.round(tops.bidUsdCents * perUsdCent));
  if (!hasOrders || bidTop < 1) return { ask, listingCount, bid: [], orderCount: 0 };
  const bid = ladder(bidKey, item, bidTop, ladderDepth(bidKey, item), -1, profile.countsOrders);
  const orderCount = sum(bid, 'orders') + tail(bidKey, item, 106);
  return { ask, listingCount, bid, orderCount };
}
