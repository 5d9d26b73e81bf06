/** Query and response schemas of the price history endpoints (camelCase). */
import { Type } from '@sinclair/typebox';
import { INTERVALS } from '../../pricing/rollup-buckets.ts';
import { LISTING_TYPE_ALIASES, LISTING_TYPES } from '../../pricing/rollup-points.ts';
import { SALES_WINDOWS } from '../../pricing/rollup-volume.ts';
import { GameQuery, MarketsQuery, Nullable, StringEnum, Timestamp } from './common.ts';

const cents = (description: string) => Nullable(Type.Integer({ description }));

export const HistoryPoint = Type.Object({
  timestamp: Timestamp('Start of the bucket (UTC).'),
  avgPrice: cents('Mean of the observed prices, half up.'),
  medianPrice: cents(
    'Median from a log-histogram sketch: exact when the middle values share a price, else within 0.79%.',
  ),
  minPrice: cents('Lowest observed price.'),
  maxPrice: cents('Highest observed price (may include extreme listings).'),
  bestAskCents: cents('Lowest ask in the bucket.'),
  bestBidCents: cents(
    "Aggregate: best cash-executable market's bid not above bestAskCents; per market: that market's highest bid.",
  ),
  spreadBps: Nullable(
    Type.Integer({ description: 'In bps of the mid price; may be negative on per-market series.' }),
  ),
  listingCount: Nullable(
    Type.Integer({
      description:
        'Listings behind the asks (SELL_OFFER), buy orders (BUY_ORDER), units sold (SALE_HISTORY).',
    }),
  ),
  totalQuantity: Nullable(Type.Integer({ description: 'BUY_ORDER only: units the bids absorb.' })),
  volume: Nullable(
    Type.Integer({
      description:
        'SALE_HISTORY only: units sold in the trailing salesWindow as of the bucket end. Rolling: never sum.',
    }),
  ),
});

const envelope = {
  canonicalItemId: Type.String(),
  name: Type.String({ description: 'Market hash name.' }),
  listingType: StringEnum(LISTING_TYPES),
  salesWindow: Nullable(StringEnum(SALES_WINDOWS, 'Set for SALE_HISTORY only.')),
  effectiveInterval: StringEnum(['10m', '1h', '1d'] as const, 'Width of the buckets served.'),
};

export const History = Type.Object({
  ...envelope,
  history: Type.Array(HistoryPoint, {
    description: 'Oldest first; buckets without observations absent.',
  }),
});

export const HistoryByMarket = Type.Object({
  ...envelope,
  series: Type.Array(Type.Object({ market: Type.String(), history: Type.Array(HistoryPoint) })),
});

const queryFields = {
  from: Type.Optional(
    Type.String({
      description:
        'ISO 8601 (UTC when no offset), or relative to now: `now`, `now-90m`, `now-24h`, `now-7d`. Default: 30 days before `to`.',
    }),
  ),
  to: Type.Optional(
    Type.String({ description: 'ISO 8601, or relative to now like `from`. Default: now.' }),
  ),
  listingType: Type.Optional(
    StringEnum(
      Object.keys(LISTING_TYPE_ALIASES) as (keyof typeof LISTING_TYPE_ALIASES)[],
      'SELL_OFFER (default), BUY_ORDER, SALE_HISTORY, or the aliases SELL, BUY, SALES.',
    ),
  ),
  salesWindow: Type.Optional(
    StringEnum(SALES_WINDOWS, 'Rolling volume window, SALE_HISTORY only (default 30d).'),
  ),
  interval: Type.Optional(
    StringEnum(
      INTERVALS,
      'MINUTE_5 / MINUTE_15 serve 10m, HOUR_1 / HOUR_6 serve 1h, DAY_1 serves 1d. Default by range.',
    ),
  ),
};

export const AggregateHistoryQuery = Type.Object({
  ...queryFields,
  markets: Type.Optional(
    Type.String({ description: 'Not accepted here (400): use /history/markets.' }),
  ),
});

export const MarketHistoryQuery = Type.Object({
  ...queryFields,
  markets: Type.Optional(MarketsQuery),
});

export const V2 = { game: GameQuery };
