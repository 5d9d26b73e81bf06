/** Response schemas of the pricing snapshot and the item search (one schema per response). */
import { Type } from '@sinclair/typebox';
import { Nullable, NullableObject, Timestamp } from './common.ts';

const quoteFields = {
  market: Type.String({ description: 'Market id.' }),
  price: Type.Integer({ description: 'USD cents (best level of the side).' }),
  currency: Type.Literal('USD'),
  fetchedAt: Timestamp('When the service last fetched the quote; staleness is judged on it.'),
  ingestedAt: Timestamp('When it reached the price store.'),
  quoteSize: Type.Integer({ description: 'Listings (asks) or orders (bids) behind the quote.' }),
};

export const AskQuote = Type.Object({
  ...quoteFields,
  ingestLatencyMs: Type.Integer({ description: 'Delay between fetch and ingest, ms.' }),
  isStale: Type.Boolean({ description: 'fetchedAt is more than 30 minutes old.' }),
  sourceUpdatedAt: Nullable(Timestamp('Source-side time, when the source gives one.')),
  sourceTimeKind: Nullable(Type.String({ description: 'Kind of sourceUpdatedAt.' })),
  sourceAgeSeconds: Nullable(
    Type.Integer({ description: 'Age of sourceUpdatedAt at fetch time, whole seconds.' }),
  ),
});

export const BidQuote = Type.Object({
  ...quoteFields,
  totalQuantity: Type.Integer({ description: 'Units the buy orders absorb.' }),
  ingestLatencyMs: Type.Integer(),
  isStale: Type.Boolean(),
});

const topOfBookFields = {
  market: Type.String(),
  price: Type.Integer(),
  updatedAt: Timestamp(),
  isStale: Type.Boolean(),
};

export const PricingSnapshot = Type.Object({
  canonicalItemId: Type.String(),
  name: Type.String({ description: 'Market hash name.' }),
  aggregate: NullableObject(
    {
      minPrice: Type.Integer(),
      maxPrice: Type.Integer(),
      avgPrice: Type.Integer({ description: 'Mean, rounded half up.' }),
      medianPrice: Type.Integer({ description: 'Even count: mean of the middle two, half up.' }),
      stdDev: Type.Number({ description: 'Population standard deviation, 2 decimals.' }),
      marketCount: Type.Integer(),
      freshMarketCount: Type.Integer(),
      listingCount: Type.Integer(),
      updatedAt: Timestamp('Newest fetchedAt among the asks.'),
    },
    'Statistics of the representative asks (one per market); null when there are none.',
  ),
  markets: Type.Array(AskQuote, {
    description: 'One representative ask per market, cheapest first.',
  }),
  buyOrders: Type.Array(BidQuote, { description: 'Best buy order per market, highest first.' }),
  bestAsk: NullableObject(topOfBookFields, 'Cheapest ask; null when there are no asks.'),
  bestBid: NullableObject(
    topOfBookFields,
    'Highest bid (cash-executable markets only unless `markets` is given).',
  ),
  spreadBps: Nullable(
    Type.Integer({
      description: 'Gap in bps of the bid; null with a missing side, a crossed book or over 10000.',
    }),
  ),
  marketCount: Type.Integer({ description: 'Markets with an ask or a bid.' }),
  freshMarketCount: Type.Integer({ description: 'Of those, markets with a fresh quote.' }),
  calculatedAt: Timestamp(),
});

export const Pagination = Type.Object({
  perPage: Type.Integer(),
  currentPage: Type.Integer(),
  from: Nullable(
    Type.Integer({ description: '1-based index of the first row; null on an empty page.' }),
  ),
  to: Nullable(
    Type.Integer({ description: '1-based index of the last row; null on an empty page.' }),
  ),
  total: Type.Integer(),
  lastPage: Type.Integer({ description: 'At least 1.' }),
  prevPage: Nullable(Type.Integer()),
  nextPage: Nullable(Type.Integer()),
});

export const ItemsPage = Type.Object({
  data: Type.Array(PricingSnapshot),
  pagination: Pagination,
});
