/**
 * The cross-market best bid and offer for one item: raw top of book (best-bid rule from
 * top-of-book.ts), spread with the BID as divisor (negative when crossed), locked / crossed,
 * coverage counts, a confidence score and the execution-adjusted view after fees.
 */
import { iso } from '../domain/clock.ts';
import type { MarketSides } from '../book/book.ts';
import type { FeeModel } from '../markets/fees.ts';
import { nbboConfidence } from './confidence.ts';
import {
  bestAdjustedAsk,
  bestAdjustedBid,
  type AdjustedBid,
  type AdjustedQuote,
  type ExecutionReason,
} from './execution.ts';
import { countMarkets, score4, topQuote, type ItemRef, type TopQuote } from './book-view.ts';
import {
  askSides,
  bestAskSide,
  bestBidSide,
  eligibleBidSides,
  type MarketSelection,
} from './top-of-book.ts';

import { spreadState, type SpreadState } from './top-of-book.ts';
export { spreadState, type SpreadState };
export interface ExecutionAdjusted extends SpreadState {
  bestAsk: AdjustedQuote | null;
  bestBid: AdjustedBid | null;
  /** confidence × mean executability of the adjusted sides present. */
  executableConfidence: number;
  reasons: ExecutionReason[];
  feeModelVersion: string;
  calculatedAt: string;
}

export interface Nbbo extends SpreadState {
  marketHashName: string;
  canonicalItemId: string;
  bestAsk: TopQuote | null;
  bestBid: TopQuote | null;
  marketCount: number;
  freshMarketCount: number;
  confidence: number;
  executionAdjusted: ExecutionAdjusted | null;
  calculatedAt: string;
}

export function computeNbbo(
  item: ItemRef,
  sides: readonly MarketSides[],
  selection: MarketSelection,
  feeModel: FeeModel,
  now: number,
): Nbbo {
  const asks = askSides(sides, selection);
  const bids = eligibleBidSides(sides, selection);
  const askSide = bestAskSide(asks);
  const bidSide = bestBidSide(bids);
  const bestAsk = askSide ? topQuote(askSide, now) : null;
  const bestBid = bidSide ? topQuote(bidSide, now) : null;
  const counts = countMarkets([...asks, ...bids], now);
  const confidence = nbboConfidence({
    asks,
    bids,
    bestAsk: askSide,
    bestBid: bidSide,
    freshMarketCount: counts.freshMarketCount,
    now,
  });
  const hasQuotes = asks.length > 0 || bids.length > 0;
  const spread = spreadState(bestAsk?.price ?? null, bestBid?.price ?? null);
  return {
    marketHashName: item.marketHashName,
    canonicalItemId: item.id,
    bestAsk,
    bestBid,
    spreadBps: spread.spreadBps,
    marketCount: counts.marketCount,
    freshMarketCount: counts.freshMarketCount,
    locked: spread.locked,
    crossed: spread.crossed,
    confidence,
    executionAdjusted: hasQuotes
      ? executionAdjusted(
          bestAdjustedAsk(asks, feeModel, now),
          bestAdjustedBid(bids, feeModel, now),
          confidence,
          feeModel,
          now,
        )
      : null,
    calculatedAt: iso(now),
  };
}

function executionAdjusted(
  bestAsk: AdjustedQuote | null,
  bestBid: AdjustedBid | null,
  confidence: number,
  feeModel: FeeModel,
  now: number,
): ExecutionAdjusted {
  const present = [bestAsk, bestBid].filter((quote) => quote !== null);
  const meanExecutability =
    present.reduce((sum, quote) => sum + quote.executability, 0) / Math.max(1, present.length);
  return {
    bestAsk,
    bestBid,
    ...spreadState(bestAsk?.price ?? null, bestBid?.price ?? null),
    executableConfidence: score4(confidence * meanExecutability),
    reasons: combinedReasons(bestAsk, bestBid),
    feeModelVersion: feeModel.version,
    calculatedAt: iso(now),
  };
}

const REASON_ORDER: readonly ExecutionReason[] = [
  'assumed_fees',
  'unknown_executable_depth',
  'stale_quote',
  'wallet_credit_only',
  'no_ask_quotes',
  'no_bid_quotes',
];

function combinedReasons(
  bestAsk: AdjustedQuote | null,
  bestBid: AdjustedBid | null,
): ExecutionReason[] {
  const found = new Set<ExecutionReason>([
    ...(bestAsk?.reasons ?? []),
    ...(bestBid?.reasons ?? []),
  ]);
  if (!bestAsk) found.add('no_ask_quotes');
  if (!bestBid) found.add('no_bid_quotes');
  return REASON_ORDER.filter((reason) => found.has(reason));
}
