/**
 * Rows of the bulk read `GET /v1/items/all`: every catalog item in catalog order (capped at
 * 50,000 rows), with each market's best ask as `latestPrices` (cheapest first) and the
 * cross-market ask aggregate (null when the item has no asks). Pure; built once per book change
 * by the HTTP layer's cache, never per request.
 */
import type { MarketSides } from '../book/book.ts';
import { iso } from '../domain/clock.ts';
import type { CatalogItem } from '../domain/item.ts';
import type { MarketId } from '../domain/markets.ts';
import type { SideSnapshot } from '../domain/quote.ts';
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

function bestAsks(sides: readonly MarketSides[]): SideSnapshot[] {
  const asks: SideSnapshot[] = [];
  for (const entry of sides) if (entry.ask && entry.ask.levels.length > 0) asks.push(entry.ask);
  return asks.sort(
    (a, b) => a.levels[0]!.price - b.levels[0]!.price || a.market.localeCompare(b.market),
  );
}

export function itemsAllRow(item: CatalogItem, sides: readonly MarketSides[]): ItemsAllRow {
  const asks = bestAsks(sides);
  const stats = priceStats(asks.map((side) => side.levels[0]!.price));
  let updatedAt = 0;
  for (const side of asks) updatedAt = Math.max(updatedAt, side.fetchedAt);
  return {
    id: item.id,
    name: item.marketHashName,
    latestPrices: asks.map((side) => ({
      market: side.market,
      effectiveUsdCents: side.levels[0]!.price,
      fetchedAt: iso(side.fetchedAt),
      originalCurrency: side.originalCurrency,
    })),
    priceAggregates: stats ? { ...stats, updatedAt: iso(updatedAt) } : null,
  };
}

export function itemsAllRows(
  items: readonly CatalogItem[],
  sidesOf: (itemId: string) => readonly MarketSides[],
  maxRows = ITEMS_ALL_MAX_ROWS,
): ItemsAllRow[] {
  const rows: ItemsAllRow[] = [];
  for (const item of items) {
    if (rows.length >= maxRows) break;
    rows.push(itemsAllRow(item, sidesOf(item.id)));
  }
  return rows;
}
