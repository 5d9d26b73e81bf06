/**
 * Batch aggregation rows (snake_case): per item the best ask of every selected market
 * (min-prices, cheapest first) or the best bid of every eligible market (max-orders, highest
 * first, best-bid rule). Stale quotes stay in, flagged `is_stale: true`.
 */
import type { MarketSides } from '../book/book.ts';
import { isStale } from '../domain/freshness.ts';
import type { MarketId } from '../domain/markets.ts';
import type { Cents } from '../domain/money.ts';
import type { SideSnapshot } from '../domain/quote.ts';
import { quoteSize, topLevel, type ItemRef } from './book-view.ts';
import { sideTimes } from './snapshot.ts';
import { askSides, eligibleBidSides, type MarketSelection } from './top-of-book.ts';

export interface AggregationPrice {
  market_name: MarketId;
  /** Listings (asks) or buy orders (bids) behind the quote (see quoteSize). */
  offers: number;
  price: Cents;
  updated_at: string;
  is_stale: boolean;
  ingested_at: string;
  /** Fetch-to-ingest delay, not the price age. */
  ingest_latency_ms: number;
}

export interface AggregationOrder extends AggregationPrice {
  total_quantity: number;
}

export interface MinPricesItem {
  canonical_item_id: string;
  market_hash_name: string;
  prices: AggregationPrice[];
}

export interface MaxOrdersItem {
  canonical_item_id: string;
  market_hash_name: string;
  orders: AggregationOrder[];
}

export interface ItemBook {
  item: ItemRef;
  sides: readonly MarketSides[];
}

export function minPricesItem(
  item: ItemRef,
  sides: readonly MarketSides[],
  selection: MarketSelection,
  now: number,
): MinPricesItem {
  const prices = askSides(sides, selection)
    .map((side) => priceRow(side, now))
    .sort((a, b) => a.price - b.price || a.market_name.localeCompare(b.market_name));
  return { canonical_item_id: item.id, market_hash_name: item.marketHashName, prices };
}

export function maxOrdersItem(
  item: ItemRef,
  sides: readonly MarketSides[],
  selection: MarketSelection,
  now: number,
): MaxOrdersItem {
  const orders = eligibleBidSides(sides, selection)
    .map((side) => ({ ...priceRow(side, now), total_quantity: side.totalQuantity }))
    .sort((a, b) => b.price - a.price || a.market_name.localeCompare(b.market_name));
  return { canonical_item_id: item.id, market_hash_name: item.marketHashName, orders };
}

export function aggregateMinPrices(
  books: readonly ItemBook[],
  selection: MarketSelection,
  now: number,
): { items: MinPricesItem[] } {
  return { items: books.map((book) => minPricesItem(book.item, book.sides, selection, now)) };
}

export function aggregateMaxOrders(
  books: readonly ItemBook[],
  selection: MarketSelection,
  now: number,
): { items: MaxOrdersItem[] } {
  return { items: books.map((book) => maxOrdersItem(book.item, book.sides, selection, now)) };
}

function priceRow(side: SideSnapshot, now: number): AggregationPrice {
  const times = sideTimes(side);
  return {
    market_name: side.market,
    offers: quoteSize(side),
    price: topLevel(side).price,
    updated_at: times.fetchedAt,
    is_stale: isStale(side.fetchedAt, now),
    ingested_at: times.ingestedAt,
    ingest_latency_ms: Math.max(0, side.ingestedAt - side.fetchedAt),
  };
}
