/** Test fixtures for the liquidity model: sales records in USD cents on a given market. */
import type { Game } from '../domain/games.ts';
import type { MarketId } from '../domain/markets.ts';
import type { SaleRecord, SalesStatsRecord } from '../domain/quote.ts';
import type { SalesWindow } from '../domain/observation.ts';

export function sale(
  market: MarketId,
  soldAt: number,
  quantity = 1,
  itemId = 'item-1',
  game: Game = 'cs2',
): SaleRecord {
  return {
    game,
    itemId,
    market,
    price: 1000,
    quantity,
    soldAt,
    ingestedAt: soldAt,
    originalCurrency: 'USD',
  };
}

/** `count` one-unit sales, the newest at `newestAt`, `gapMs` apart (oldest first). */
export function evenSales(
  market: MarketId,
  count: number,
  newestAt: number,
  gapMs: number,
  itemId = 'item-1',
  game: Game = 'cs2',
): SaleRecord[] {
  return Array.from({ length: count }, (_, index) =>
    sale(market, newestAt - (count - 1 - index) * gapMs, 1, itemId, game),
  );
}

export function stats(
  market: MarketId,
  window: SalesWindow,
  volume: number,
  fetchedAt: number,
): SalesStatsRecord {
  return {
    game: 'cs2',
    itemId: 'item-1',
    market,
    window,
    volume,
    minPrice: null,
    maxPrice: null,
    avgPrice: null,
    medianPrice: null,
    fetchedAt,
    ingestedAt: fetchedAt,
    originalCurrency: 'USD',
  };
}
