/** Response schema of a recommendation record (snake_case). */
import { Type } from '@sinclair/typebox';
import { Nullable, NullableObject, StringEnum, Timestamp } from './common.ts';
import { UNSTABLE_REASONS } from '../../pricing/recommendation-rules.ts';

const STRATEGIES = [
  'midpoint',
  'best_ask_fallback',
  'best_bid_fallback',
  'stale_midpoint',
  'stale_best_ask_fallback',
  'stale_best_bid_fallback',
  'crossed_best_ask',
  'no_data',
  'insufficient_support',
] as const;

const quote = {
  market: Type.String(),
  price: Type.Integer({ description: 'USD cents.' }),
  updated_at: Timestamp(),
  is_stale: Type.Boolean(),
};

const Score = (description: string) => Type.Number({ minimum: 0, maximum: 1, description });

export const Recommendation = Type.Object({
  canonical_item_id: Type.String(),
  market_hash_name: Type.String(),
  suggested_price: Nullable(
    Type.Integer({
      description: 'USD cents; null (a valid answer) for no_data and insufficient_support.',
    }),
  ),
  strategy: StringEnum(STRATEGIES),
  confidence: Score('Strategy base × 0.85 per unstable reason.'),
  liquidity_score: Score('0.5 sell depth + 0.3 buy depth + 0.2 breadth.'),
  unstable_reasons: Type.Array(StringEnum(UNSTABLE_REASONS)),
  best_ask: NullableObject(quote),
  best_bid: NullableObject(quote, 'Cash-executable markets only, even with `markets`.'),
  spread_bps: Nullable(Type.Integer({ description: 'In bps of the bid; negative when crossed.' })),
  market_count: Type.Integer(),
  fresh_market_count: Type.Integer(),
  listing_count: Type.Integer(),
  buy_order_count: Type.Integer({ description: 'Distinct buy-order price levels.' }),
  total_bid_quantity: Type.Integer(),
  calculated_at: Timestamp(),
});
