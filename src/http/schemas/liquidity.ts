/** Response and body schemas of the liquidity routes (camelCase; the bulk map's items as served). */
import { Type } from '@sinclair/typebox';
import { Nullable, StringEnum, Timestamp } from './common.ts';
import { BADGES, LABELS } from '../../liquidity/classify.ts';
import { CONFIDENCES, COVERAGES } from '../../liquidity/quality.ts';

const Hours = (description: string) => Nullable(Type.Number({ minimum: 0, description }));
const PerDay = (description: string) => Nullable(Type.Number({ minimum: 0, description }));

const Badge = StringEnum(
  BADGES,
  'Badge from the best market’s median time-to-sell, capped by data age.',
);
const Confidence = StringEnum(CONFIDENCES);

export const LiquidityMetricsRow = Type.Object({
  market: Type.String(),
  salesPerDay: PerDay('Units sold per day (rolling window).'),
  activeListings: Nullable(Type.Integer()),
  bestAskUsdCents: Nullable(Type.Integer({ description: 'USD cents.' })),
  medianTimeToSellHours: Hours('At the reference price; null below 3 sales in 30 days.'),
  p90TimeToSellHours: Hours('At the reference price.'),
  salesDataAgeMinutes: Nullable(Type.Integer({ description: 'Since the newest sale evidence.' })),
  listingsDataAgeMinutes: Nullable(
    Type.Integer({ description: 'Since the ask side was fetched.' }),
  ),
});

export const LiquidityRecord = Type.Object({
  canonicalItemId: Type.String(),
  marketHashName: Type.String(),
  liquidityBadge: Badge,
  confidence: Confidence,
  coverage: StringEnum(COVERAGES),
  medianTimeToSellHours: Hours('Best market, at the reference price.'),
  p90TimeToSellHours: Hours('Best market, at the reference price.'),
  bestMarketToList: Nullable(Type.String()),
  salesPerDay: PerDay('Best market.'),
  activeListings: Nullable(Type.Integer({ description: 'Best market.' })),
  referenceAskUsdCents: Nullable(
    Type.Integer({ description: 'The given askPrice, else the cheapest ask in scope (cents).' }),
  ),
  marketWideSalesPerDay: PerDay('Sum over markets with sales.'),
  marketWideListings: Nullable(Type.Integer()),
  marketsWithSales: Type.Integer(),
  marketsWithDepth: Type.Integer(),
  marketWideMedianTimeToSellHours: Hours('Whole current supply at the combined rate.'),
  marketWideP90TimeToSellHours: Hours('Whole current supply at the combined rate.'),
  metrics: Type.Array(LiquidityMetricsRow),
  notes: Type.Array(Type.String({ description: '<flag>:<market_id>' })),
  calculatedAt: Timestamp(),
});

export const LiquiditySummary = Type.Object({
  marketHashName: Type.String(),
  liquidityBadge: Badge,
  liquidity: StringEnum(LABELS, 'Lowercase badge; `unknown` for INSUFFICIENT_DATA.'),
  estimatedSaleTime: Type.String({
    description: '"N - M hours", "N - M days" or "Insufficient data".',
  }),
  confidence: Confidence,
  score: Nullable(Type.Integer({ minimum: 0, maximum: 100 })),
  bestMarketToList: Nullable(Type.String()),
  calculatedAt: Timestamp(),
});

export const BATCH_MAX_NAMES = 100;

export const LiquidityBatchBody = Type.Object(
  {
    marketHashNames: Type.Array(Type.String(), {
      minItems: 1,
      maxItems: BATCH_MAX_NAMES,
      description:
        'Item selectors, 1 to 100: exact market hash names, canonical ids, slugs or names in any letter case.',
    }),
    market: Type.Optional(Type.String({ description: 'Restrict to one liquidity market.' })),
  },
  { additionalProperties: false },
);

export const LiquidityBatch = Type.Object({
  results: Type.Array(LiquidityRecord),
  notFound: Type.Array(Type.String()),
  requested: Type.Integer(),
  calculatedAt: Timestamp(),
});

const manifestFields = {
  version: Type.String({ description: 'ETag of the map, `<build ms>-<build number>`.' }),
  calculatedAt: Timestamp(),
  cadence: Type.String({ description: 'ISO 8601 duration between rebuilds (PT10M).' }),
  markets: Type.Array(Type.String()),
  itemCount: Type.Integer(),
};

export const LiquidityManifest = Type.Object(manifestFields);

export const LiquidityItems = Type.Object({
  ...manifestFields,
  items: Type.Record(
    Type.String(),
    Type.Object({
      market_hash_name: Type.String(),
      liquidity: StringEnum(LABELS),
      estimated_sale_time: Type.String(),
      liquidityBadge: Badge,
      confidence: Confidence,
      score: Nullable(Type.Integer({ minimum: 0, maximum: 100 })),
      bestMarketToList: Nullable(Type.String()),
      variants: Type.Object({}),
    }),
  ),
});
