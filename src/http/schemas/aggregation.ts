/** Response schemas of the batch aggregations min-prices / max-orders (snake_case). */
import { Type } from '@sinclair/typebox';
import { Timestamp } from './common.ts';

const rowFields = {
  market_name: Type.String(),
  offers: Type.Integer({ description: 'Listings (asks) or buy orders (bids) behind the quote.' }),
  price: Type.Integer({
    description: 'USD cents: best ask (min-prices) or best bid (max-orders).',
  }),
  updated_at: Timestamp('fetchedAt of the quote.'),
  is_stale: Type.Boolean({ description: 'Stale quotes are kept and flagged.' }),
  ingested_at: Timestamp(),
  ingest_latency_ms: Type.Integer({ description: 'Fetch-to-ingest delay, not the price age.' }),
};

export const MinPrices = Type.Object({
  items: Type.Array(
    Type.Object({
      canonical_item_id: Type.String(),
      market_hash_name: Type.String(),
      prices: Type.Array(Type.Object(rowFields), { description: 'Cheapest first.' }),
    }),
  ),
});

export const MaxOrders = Type.Object({
  items: Type.Array(
    Type.Object({
      canonical_item_id: Type.String(),
      market_hash_name: Type.String(),
      orders: Type.Array(Type.Object({ ...rowFields, total_quantity: Type.Integer() }), {
        description: 'Highest first; cash-executable markets only unless `markets` is given.',
      }),
    }),
  ),
});
