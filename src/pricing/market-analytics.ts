/**
 * Market analytics (pure, snake_case): per market, the current quotes from the book and the
 * rolling statistics over the last `windowHours` from the rollups.
 *
 * - The window is the 10-minute buckets overlapping [now − windowHours, now], read as whole
 *   days / hours / 10-minute buckets (analyticsSpans) and merged per market.
 * - current_*: the market's latest sides. spread_bps is in bps of the bid (as on NBBO) and
 *   negative when the market's own quotes cross. A side that exists but is empty has a null
 *   price and a zero count; a missing side gives nulls.
 * - Rolling averages are over the window's observations (rollups.ts) and may be fractional
 *   cents: rounded to 2 decimals. Minimum and maximum are integer cents.
 * - A market without quotes or observations in the window is a row of nulls.
 * - Extension `sales_stats`: the market's own statistics of its sales per trailing window, as
 *   it publishes them (Skinport's 24h/7d/30d/90d, Steam's 24h), or null when it publishes none.
 */
import type { MarketSides } from '../book/book.ts';
import { HOUR, iso } from '../domain/clock.ts';
import { isStale } from '../domain/freshness.ts';
import type { MarketId } from '../domain/markets.ts';
import type { Cents } from '../domain/money.ts';
import type { SalesWindow } from '../domain/observation.ts';
import type { SalesStatsRecord, SideSnapshot } from '../domain/quote.ts';
import { quoteSize, type ItemRef } from './book-view.ts';
import { spreadState } from './top-of-book.ts';
import { bucketStart, coverRange, TIER_MS, type TierSpan } from './rollup-buckets.ts';
import { TALLY, talliedSum, type RollupRow } from './rollups.ts';

export interface MarketAnalyticsRow {
  market: MarketId;
  current_ask: Cents | null;
  current_bid: Cents | null;
  spread_bps: number | null;
  ask_is_stale: boolean | null;
  bid_is_stale: boolean | null;
  current_listing_count: number | null;
  current_buy_order_count: number | null;
  current_bid_quantity: number | null;
  sell_avg_price: number | null;
  sell_min_price: Cents | null;
  sell_max_price: Cents | null;
  sell_avg_listing_count: number | null;
  buy_avg_price: number | null;
  buy_max_price: Cents | null;
  buy_avg_order_count: number | null;
  buy_avg_total_quantity: number | null;
  sales_stats: Partial<Record<SalesWindow, MarketSalesStats>> | null;
}

export interface MarketSalesStats {
  volume: number;
  min_price: Cents | null;
  max_price: Cents | null;
  avg_price: Cents | null;
  median_price: Cents | null;
  fetched_at: string;
  is_stale: boolean;
}

export interface MarketAnalytics {
  canonical_item_id: string;
  market_hash_name: string;
  window_hours: number;
  markets: MarketAnalyticsRow[];
  calculated_at: string;
}

/** The spans of stored buckets that make up the window ending at `now`. */
export function analyticsSpans(now: number, windowHours: number): TierSpan[] {
  const from = bucketStart(now - windowHours * HOUR, '10m');
  const to = bucketStart(now, '10m') + TIER_MS['10m'];
  return coverRange(from, to);
}

function twoDecimals(value: number): number {
  return Math.round(value * 100) / 100;
}

function average(sum: number, n: number): number {
  return twoDecimals(sum / n);
}

function topPrice(side: SideSnapshot | null): Cents | null {
  return side?.levels[0]?.price ?? null;
}

function currentFields(entry: MarketSides | undefined, now: number) {
  const ask = entry?.ask ?? null;
  const bid = entry?.bid ?? null;
  const askPrice = topPrice(ask);
  const bidPrice = topPrice(bid);
  return {
    current_ask: askPrice,
    current_bid: bidPrice,
    spread_bps: spreadState(askPrice, bidPrice).spreadBps,
    ask_is_stale: ask ? isStale(ask.fetchedAt, now) : null,
    bid_is_stale: bid ? isStale(bid.fetchedAt, now) : null,
    current_listing_count: ask ? quoteSize(ask) : null,
    current_buy_order_count: bid ? quoteSize(bid) : null,
    current_bid_quantity: bid ? bid.totalQuantity : null,
  };
}

function rollingFields(window: RollupRow | undefined) {
  const sell = window?.ask ?? null;
  const buy = window?.bid ?? null;
  return {
    sell_avg_price: sell ? average(sell.prices.sum, sell.prices.n) : null,
    sell_min_price: sell ? sell.prices.min : null,
    sell_max_price: sell ? sell.prices.max : null,
    sell_avg_listing_count: sell ? average(talliedSum(sell, TALLY.size), sell.prices.n) : null,
    buy_avg_price: buy ? average(buy.prices.sum, buy.prices.n) : null,
    buy_max_price: buy ? buy.prices.max : null,
    buy_avg_order_count: buy ? average(talliedSum(buy, TALLY.size), buy.prices.n) : null,
    buy_avg_total_quantity: buy ? average(talliedSum(buy, TALLY.quantity), buy.prices.n) : null,
  };
}

function salesStatsFields(
  records: readonly SalesStatsRecord[],
  now: number,
): MarketAnalyticsRow['sales_stats'] {
  if (records.length === 0) return null;
  const byWindow: Partial<Record<SalesWindow, MarketSalesStats>> = {};
  for (const record of records) {
    byWindow[record.window] = {
      volume: record.volume,
      min_price: record.minPrice,
      max_price: record.maxPrice,
      avg_price: record.avgPrice,
      median_price: record.medianPrice,
      fetched_at: iso(record.fetchedAt),
      is_stale: isStale(record.fetchedAt, now),
    };
  }
  return byWindow;
}

/**
 * One row per market in `markets` (in that order). `windows` holds each market's window
 * merged into one row (absent when the market observed nothing in the window).
 */
export function marketAnalytics(
  item: ItemRef,
  markets: readonly MarketId[],
  sides: readonly MarketSides[],
  windows: ReadonlyMap<MarketId, RollupRow>,
  windowHours: number,
  now: number,
  salesStats: readonly SalesStatsRecord[] = [],
): MarketAnalytics {
  const byMarket = new Map(sides.map((entry) => [entry.market, entry]));
  return {
    canonical_item_id: item.id,
    market_hash_name: item.marketHashName,
    window_hours: windowHours,
    markets: markets.map((market) => ({
      market,
      ...currentFields(byMarket.get(market), now),
      ...rollingFields(windows.get(market)),
      sales_stats: salesStatsFields(
        salesStats.filter((record) => record.market === market),
        now,
      ),
    })),
    calculated_at: iso(now),
  };
}
