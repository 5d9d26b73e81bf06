/**
 * What one market shows for one game at one moment, before its folder's writer puts it in the
 * upstream's shape: the listed items with their quotes (full ladders) in native units, the
 * sales of the last cadence window, and listings / per-item depth for a rotating slice of
 * items (the most popular always), as a paged crawl of per-item endpoints would collect them.
 */
import type { Game } from '../../domain/games.ts';
import type { MarketId } from '../../domain/markets.ts';
import { MARKET_INFO } from '../registry.ts';
import { hasListings, listingsAt } from './listings.ts';
import { itemMarketKey, unitsPerUsd } from './price-model.ts';
import { SIM_PROFILES } from './profiles.ts';
import { isListed, quoteAt } from './quote.ts';
import { salesBetween, type SimSale } from './sales.ts';
import type { NativeSale, SimSnapshot } from './sim-market.ts';
import { ALWAYS_DEEP_ITEMS, universeSize, type SimWorld } from './world.ts';

/** Time the upstream data describes when fetched at `now`. */
export function dataTimeAt(market: MarketId, now: number, lagMs: number): number {
  const cacheMs = SIM_PROFILES[market].cacheMs;
  return (cacheMs > 0 ? Math.floor(now / cacheMs) * cacheMs : now) - lagMs;
}

/** Whether the item at popularity `rank` is in this fetch's depth slice. */
export function isDeep(
  world: SimWorld,
  market: MarketId,
  rank: number,
  universe: number,
  dataTime: number,
): boolean {
  if (rank < ALWAYS_DEEP_ITEMS) return true;
  const pool = universe - ALWAYS_DEEP_ITEMS;
  const perFetch = world.depthItemsPerFetch;
  if (pool <= perFetch) return true;
  const fetchIndex = Math.floor(dataTime / MARKET_INFO[market].cadenceMs);
  const start = (fetchIndex * perFetch) % pool;
  const offset = (rank - ALWAYS_DEEP_ITEMS - start + pool) % pool;
  return offset < perFetch;
}

export function toNativeUnits(
  world: SimWorld,
  currency: string,
  scale: number,
  usdCents: number,
  timeMs: number,
): number {
  return Math.max(
    1,
    Math.round((usdCents * unitsPerUsd(world.seed, currency, timeMs) * scale) / 100),
  );
}

/** Sales reported by a fetch at `dataTime`: those of the last whole cadence window. */
export function salesWindow(market: MarketId, dataTime: number): { from: number; to: number } {
  const cadence = MARKET_INFO[market].cadenceMs;
  const to = Math.floor(dataTime / cadence) * cadence;
  return { from: to - cadence, to };
}

/** The sales in the market's units as its answers report them (salesAsReported: one unit each). */
function nativeSales(
  world: SimWorld,
  info: { currency: string; scale: number },
  sales: readonly SimSale[],
): NativeSale[] {
  const out: NativeSale[] = [];
  for (const { usdCents, quantity, soldAt } of sales) {
    const price = toNativeUnits(world, info.currency, info.scale, usdCents, soldAt);
    for (let unit = 0; unit < quantity; unit += 1) out.push({ price, quantity: 1, soldAt });
  }
  return out;
}

export function buildSnapshot(
  world: SimWorld,
  market: MarketId,
  game: Game,
  now: number,
  lagMs: number,
): SimSnapshot {
  const info = MARKET_INFO[market];
  const dataTime = dataTimeAt(market, now, lagMs);
  const snapshot: SimSnapshot = {
    market,
    game,
    currency: info.currency,
    scale: info.scale,
    dataTime,
    rows: [],
  };
  const simGame = world.games[game];
  if (!simGame) return snapshot;
  const universe = universeSize(world, market, simGame.items.length);
  const nativePerUsdCent = (unitsPerUsd(world.seed, info.currency, dataTime) * info.scale) / 100;
  const statsWindowMs = SIM_PROFILES[market].statsWindowMs;
  const window =
    statsWindowMs > 0
      ? { from: dataTime - statsWindowMs, to: dataTime }
      : salesWindow(market, dataTime);
  const crawls = info.capabilities.listings;
  for (let rank = 0; rank < universe; rank += 1) {
    const item = simGame.items[rank]!;
    const imKey = itemMarketKey(world, market, item);
    if (!isListed(market, item, imKey, dataTime)) continue;
    const deep =
      crawls &&
      (world.deepRanks[game]?.has(rank) === true ||
        isDeep(world, market, rank, universe, dataTime));
    const quote = quoteAt(world, market, item, imKey, dataTime, nativePerUsdCent);
    const sales = info.capabilities.sales
      ? nativeSales(world, info, salesBetween(world, market, item, imKey, window.from, window.to))
      : [];
    const withListings = deep && info.capabilities.listings && hasListings(item);
    const listings = withListings
      ? listingsAt(simGame, item, imKey, dataTime, quote.ask[0]!.price, quote.listingCount)
      : null;
    snapshot.rows.push({ item, quote, sales, listings });
  }
  return snapshot;
}
