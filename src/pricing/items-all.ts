/**
 * Rows of the bulk read `GET /v1/items/all`: every catalog item in catalog order (capped at
 * 50,000 rows), with each market's best ask as `latestPrices` (cheapest first) and the
 * cross-market ask aggregate (null when the item has no asks). Pure; built once per book change
 * by the HTTP layer's cache, never per request.
 */
import type { BestAsk } from '../book/book.ts';
import { iso } from '../domain/clock.ts';
import type { CatalogItem } from '../domain/item.ts';
import type { MarketId } from '../domain/markets.ts';
import { priceStats, type PriceStats } from './stats.ts';

export const ITEMS_ALL_MAX_ROWS = 50_000;

export interface LatestPrice {
  market: MarketId;
  effectiveUsdCents: number;
  fetchedAt: string;
  originalCurrency: string;
}

export interface PriceAggregates extends PriceStats {
  updatedAt: string;
}

export interface ItemsAllRow {
  id: string;
  name: string;
  latestPrices: LatestPrice[];
  priceAggregates: PriceAggregates | null;
}

/** The asks cheapest first (ties by market id). */
function cheapestFirst(asks: readonly BestAsk[]): BestAsk[] {
  return [...asks].sort((a, b) => a.price - b.price || a.market.localeCompare(b.market));
}

export function itemsAllRow(item: CatalogItem, bestAsks: readonly BestAsk[]): ItemsAllRow {
  const asks = cheapestFirst(bestAsks);
  const stats = priceStats(asks.map((ask) => ask.price));
  let updatedAt = 0;
  for (const ask of asks) updatedAt = Math.max(updatedAt, ask.fetchedAt);
  return {
    id: item.id,
    name: item.marketHashName,
    latestPrices: asks.map((ask) => ({
      market: ask.market,
      effectiveUsdCents: ask.price,
      fetchedAt: iso(ask.fetchedAt),
      originalCurrency: ask.originalCurrency,
    })),
    priceAggregates: stats ? { ...stats, updatedAt: iso(updatedAt) } : null,
  };
}

export function itemsAllRows(
  items: readonly CatalogItem[],
  bestAsksOf: (itemId: string) => readonly BestAsk[],
  maxRows = ITEMS_ALL_MAX_ROWS,
): ItemsAllRow[] {
  const rows: ItemsAllRow[] = [];
  for (const item of items) {
    if (rows.length >= maxRows) break;
    rows.push(itemsAllRow(item, bestAsksOf(item.id)));
  }
  return rows;
}
