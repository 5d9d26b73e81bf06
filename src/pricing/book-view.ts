/**
 * Small read helpers over the book's sides shared by NBBO, depth, recommendations and
 * arbitrage: the item reference they take, top-of-book views and market counts.
 */
import { iso } from '../domain/clock.ts';
import { isStale } from '../domain/freshness.ts';
import type { CatalogItem } from '../domain/item.ts';
import type { MarketId } from '../domain/markets.ts';
import type { Cents } from '../domain/money.ts';
import type { Level, SideSnapshot } from '../domain/quote.ts';

/** What the pricing functions need to know about an item. */
export type ItemRef = Pick<CatalogItem, 'id' | 'marketHashName'>;

/** camelCase top-of-book quote: `{market, price, updatedAt, isStale}`. */
export interface TopQuote {
  market: MarketId;
  price: Cents;
  updatedAt: string;
  isStale: boolean;
}

/** Best level of a non-empty side. */
export function topLevel(side: SideSnapshot): Level {
  const level = side.levels[0];
  if (!level) throw new Error(`empty ${side.side} side for ${side.market}`);
  return level;
}

export function topQuote(side: SideSnapshot, now: number): TopQuote {
  return {
    market: side.market,
    price: topLevel(side).price,
    updatedAt: iso(side.fetchedAt),
    isStale: isStale(side.fetchedAt, now),
  };
}

export interface MarketCounts {
  /** Distinct markets contributing an ask or an eligible bid. */
  marketCount: number;
  /** Of those, markets with at least one fresh contributing side. */
  freshMarketCount: number;
}

export function countMarkets(sides: readonly SideSnapshot[], now: number): MarketCounts {
  const freshByMarket = new Map<MarketId, boolean>();
  for (const side of sides) {
    const fresh = !isStale(side.fetchedAt, now);
    freshByMarket.set(side.market, (freshByMarket.get(side.market) ?? false) || fresh);
  }
  let freshMarketCount = 0;
  for (const fresh of freshByMarket.values()) if (fresh) freshMarketCount += 1;
  return { marketCount: freshByMarket.size, freshMarketCount };
}

/** Non-negative age of a quote at `now` (a fetch stamped in the future counts as age 0). */
export function ageMs(fetchedAt: number, now: number): number {
  return Math.max(0, now - fetchedAt);
}

/** Rounds a 0..1 score to 4 decimals. */
export function score4(value: number): number {
  return Math.round(Math.min(1, Math.max(0, value)) * 10_000) / 10_000;
}

/**
 * Listings (asks) or orders (bids) behind a side: the reported count, else the levels' order
 * counts (a level's quantity where it has none). The one quoteSize rule of every endpoint.
 */
export function quoteSize(side: SideSnapshot): number {
  if (side.listingCount !== null) return side.listingCount;
  return side.levels.reduce((total, level) => total + (level.orders ?? level.quantity), 0);
}
