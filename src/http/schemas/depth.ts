/** Response schema of the merged depth ladder (`/v1/nbbo/depth`, `/v2/nbbo/depth`). */
import { Type } from '@sinclair/typebox';
import { Nullable, Timestamp } from './common.ts';
import { spreadFields } from './nbbo.ts';

const DepthQuote = Type.Object({
  market: Type.String(),
  level: Type.Integer({ description: "1-based position in that market's own ladder." }),
  price: Type.Integer({ description: 'USD cents.' }),
  quantity: Type.Integer(),
  ordersCount: Nullable(Type.Integer({ description: 'null when the market does not count.' })),
  updatedAt: Timestamp(),
  isStale: Type.Boolean(),
});

const DepthLevel = Type.Object({
  rank: Type.Integer({ description: '1-based, best first.' }),
  price: Type.Integer({ description: 'USD cents.' }),
  quantity: Type.Integer({ description: 'Units at this price across markets.' }),
  ordersCount: Nullable(
    Type.Integer({ description: 'Sum of known order counts; null when no market counts.' }),
  ),
  marketCount: Type.Integer(),
  cumulativeQuantity: Type.Integer({ description: 'Units at this price or better.' }),
  updatedAt: Timestamp('Most recent fetch among the quotes at this price.'),
  isStale: Type.Boolean({ description: 'True only when every quote at this price is stale.' }),
  quotes: Type.Array(DepthQuote),
});

export const Depth = Type.Object({
  marketHashName: Type.String(),
  canonicalItemId: Type.String(),
  depth: Type.Integer({ description: 'Levels per side requested.' }),
  marketCount: Type.Integer(),
  asks: Type.Array(DepthLevel, { description: 'Cheapest first.' }),
  bids: Type.Array(DepthLevel, {
    description: 'Highest first; cash-executable markets only unless `markets` is given.',
  }),
  spreadBps: spreadFields.spreadBps,
  locked: spreadFields.locked,
  crossed: spreadFields.crossed,
  calculatedAt: Timestamp(),
});
