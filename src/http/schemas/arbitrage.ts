/** Response schema of `/v1/arbitrage/opportunities` (camelCase). */
import { Type } from '@sinclair/typebox';
import { Nullable, Timestamp } from './common.ts';

const Leg = Type.Object({
  market: Type.String(),
  price: Type.Integer({ description: 'USD cents, as quoted (before fees).' }),
  quoteSize: Type.Integer({ description: 'Listings (buy leg) or buy orders (sell leg).' }),
  updatedAt: Timestamp(),
  isStale: Type.Boolean(),
});

const Opportunity = Type.Object({
  canonicalItemId: Type.String(),
  marketHashName: Type.String(),
  slug: Type.String(),
  imageUrl: Nullable(Type.String({ description: 'null when the catalog has no image.' })),
  buy: Leg,
  sell: Leg,
  spreadBps: Type.Integer({ description: '(sell − buy) in bps of the BUY price.' }),
  spreadCents: Type.Integer(),
  estimatedNetCents: Type.Integer({
    description: 'For maxTradableQuantity units after buyer fee, seller fee and one withdrawal.',
  }),
  maxTradableQuantity: Type.Integer(),
  estimatedNotionalCents: Type.Integer({ description: 'Buy price × maxTradableQuantity.' }),
  feeNotes: Type.String({
    description:
      'Notes joined by "; ": fees applied (assumed ones marked), fee model, `stale_quote:<buy|sell>:<market>`.',
  }),
  freshness: Type.Object({ buyAgeMs: Type.Integer(), sellAgeMs: Type.Integer() }),
  calculatedAt: Timestamp(),
});

export const ArbitrageOpportunities = Type.Object({
  opportunities: Type.Array(Opportunity),
  totalCandidates: Type.Integer({ description: 'Candidate items evaluated.' }),
  calculatedAt: Timestamp(),
});
