/** Response schemas of NBBO (`/v1/nbbo`, `/v2/nbbo`), camelCase. */
import { Type } from '@sinclair/typebox';
import { Nullable, NullableObject, StringEnum, Timestamp } from './common.ts';

const Score = (description: string) => Type.Number({ minimum: 0, maximum: 1, description });

const EXECUTION_REASONS = [
  'assumed_fees',
  'unknown_executable_depth',
  'stale_quote',
  'wallet_credit_only',
  'no_ask_quotes',
  'no_bid_quotes',
] as const;

const Reasons = Type.Array(StringEnum(EXECUTION_REASONS), {
  description:
    'assumed_fees: a fee applied is an assumption; unknown_executable_depth: units fillable at the price unknown; stale_quote: older than 30 minutes; wallet_credit_only: bid proceeds are non-withdrawable credit; no_ask_quotes / no_bid_quotes (top level only).',
});

export const spreadFields = {
  spreadBps: Nullable(
    Type.Integer({
      description:
        '(ask − bid) in bps of the BID; negative when crossed; null with a missing side.',
    }),
  ),
  locked: Type.Boolean({ description: 'Best bid equals best ask.' }),
  crossed: Type.Boolean({ description: 'Best bid above best ask.' }),
};

export const topQuoteFields = {
  market: Type.String(),
  price: Type.Integer({ description: 'USD cents.' }),
  updatedAt: Timestamp('fetchedAt of the quote.'),
  isStale: Type.Boolean(),
};

const adjustedFields = {
  market: Type.String(),
  price: Type.Integer({
    description: 'Ask: total a buyer pays (buyer fee included). Bid: what a seller nets.',
  }),
  rawPrice: Type.Integer({ description: 'The quoted (gross) price.' }),
  appliedFeeBps: Type.Integer({ description: 'Buyer fee (ask) or seller commission (bid).' }),
  executability: Score('Product of the factors of the reasons that apply.'),
  updatedAt: Timestamp(),
  isStale: Type.Boolean(),
  reasons: Reasons,
};

export const ExecutionAdjusted = NullableObject(
  {
    bestAsk: NullableObject(adjustedFields, 'Lowest total cost; may differ from the raw best.'),
    bestBid: NullableObject(
      {
        ...adjustedFields,
        withdrawalFlatUsdCents: Type.Integer({ description: 'Flat fee per cash withdrawal.' }),
      },
      'Highest net proceeds after commission and withdrawal fee.',
    ),
    ...spreadFields,
    executableConfidence: Score('confidence × mean executability of the sides present.'),
    reasons: Reasons,
    feeModelVersion: Type.String({ description: 'The fee model behind the numbers.' }),
    calculatedAt: Timestamp(),
  },
  'Prices after fees; null when the item has no quotes.',
);

export const Nbbo = Type.Object({
  marketHashName: Type.String(),
  canonicalItemId: Type.String(),
  bestAsk: NullableObject(topQuoteFields, 'Cheapest ask.'),
  bestBid: NullableObject(
    topQuoteFields,
    'Highest bid: cash-executable markets only unless `markets` is given (then verbatim).',
  ),
  spreadBps: spreadFields.spreadBps,
  marketCount: Type.Integer({ description: 'Markets with an ask or an eligible bid.' }),
  freshMarketCount: Type.Integer(),
  locked: spreadFields.locked,
  crossed: spreadFields.crossed,
  confidence: Score(
    '0.4 × coverage + 0.3 × freshness + 0.3 × agreement (see docs/api/cross-market.md).',
  ),
  executionAdjusted: ExecutionAdjusted,
  calculatedAt: Timestamp(),
});
