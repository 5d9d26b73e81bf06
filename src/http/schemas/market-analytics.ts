/** Response schema of market analytics (snake_case, every row field nullable). */
import { Type } from '@sinclair/typebox';
import { SALES_WINDOWS } from '../../domain/observation.ts';
import { Nullable, Timestamp } from './common.ts';

const cents = (description: string) => Nullable(Type.Integer({ description }));
const average = (description: string) =>
  Nullable(Type.Number({ description: `${description} May be fractional (2 decimals).` }));

const WindowStats = Type.Object({
  volume: Type.Integer({ description: 'Units sold in the trailing window.' }),
  min_price: cents('Lowest sale price in the window.'),
  max_price: cents('Highest sale price in the window.'),
  avg_price: cents('Mean sale price in the window, as the market rounds it.'),
  median_price: cents('Median sale price in the window.'),
  fetched_at: Timestamp(),
  is_stale: Type.Boolean({ description: 'Fetched over 30 min ago.' }),
});

export const MarketAnalyticsRow = Type.Object({
  market: Type.String(),
  current_ask: cents("The market's current best ask, USD cents."),
  current_bid: cents("The market's current best bid, USD cents."),
  spread_bps: Nullable(
    Type.Integer({ description: 'Current ask vs bid in bps of the bid; negative when crossed.' }),
  ),
  ask_is_stale: Nullable(
    Type.Boolean({ description: 'The ask side was fetched over 30 min ago.' }),
  ),
  bid_is_stale: Nullable(Type.Boolean()),
  current_listing_count: Nullable(Type.Integer({ description: 'Listings behind the asks.' })),
  current_buy_order_count: Nullable(Type.Integer({ description: 'Buy orders behind the bids.' })),
  current_bid_quantity: Nullable(Type.Integer({ description: 'Units the bids absorb.' })),
  sell_avg_price: average('Mean observed ask over the window, USD cents.'),
  sell_min_price: cents('Lowest observed ask over the window.'),
  sell_max_price: cents('Highest observed ask over the window.'),
  sell_avg_listing_count: average('Mean listings behind the observed asks.'),
  buy_avg_price: average('Mean observed bid over the window, USD cents.'),
  buy_max_price: cents('Highest observed bid over the window.'),
  buy_avg_order_count: average('Mean buy orders behind the observed bids.'),
  buy_avg_total_quantity: average('Mean units the observed bids absorb.'),
  sales_stats: Nullable(
    Type.Object(
      Object.fromEntries(SALES_WINDOWS.map((window) => [window, Type.Optional(WindowStats)])),
      {
        description:
          "Extension: the market's own statistics of its sales per trailing window (Skinport " +
          '24h/7d/30d/90d, Steam 24h); null when the market publishes none.',
      },
    ),
  ),
});

export const MarketAnalytics = Type.Object({
  canonical_item_id: Type.String(),
  market_hash_name: Type.String(),
  window_hours: Type.Integer(),
  markets: Type.Array(MarketAnalyticsRow, {
    description: 'One row per market of the game (or of `markets`); no activity → a row of nulls.',
  }),
  calculated_at: Timestamp(),
});
