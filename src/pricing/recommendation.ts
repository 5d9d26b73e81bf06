/**
 * The suggested list price for one item (snake_case record). The best bid behind it counts
 * cash-executable markets only, even when a `markets` list is given (spec: recommendations).
 * Strategy, in order of precedence:
 *   no_data               nothing quoted; suggested_price null
 *   insufficient_support  no present side is independently supported; suggested_price null
 *   crossed_best_ask      the best bid nets more than the best ask costs after both markets'
 *                         estimated fees; suggests the best ask
 *   midpoint              both best quotes fresh; halfway, rounded half up
 *   best_ask_fallback / best_bid_fallback            only that side's best quote is fresh
 *   stale_midpoint / stale_best_ask_fallback / stale_best_bid_fallback   no fresh best quote
 */
import { iso } from '../domain/clock.ts';
import type { MarketSides } from '../book/book.ts';
import type { MarketId } from '../domain/markets.ts';
import type { Bps, Cents } from '../domain/money.ts';
import type { SideSnapshot } from '../domain/quote.ts';
import { feesFor, type FeeModel } from '../markets/fees.ts';
import { isStale } from '../domain/freshness.ts';
import {
  countMarkets,
  quoteSize,
  topLevel,
  topQuote,
  type ItemRef,
  type TopQuote,
} from './book-view.ts';
import { buyerPays, sellerNets } from './execution.ts';
import { spreadState } from './nbbo.ts';
import {
  hasIndependentSupport,
  unstableReasons,
  type TopPrice,
  type UnstableReason,
} from './recommendation-rules.ts';
import {
  liquidityScore,
  recommendationConfidence,
  type Strategy,
} from './recommendation-scores.ts';
import {
  askSides,
  bestAskSide,
  bestBidSide,
  cashBidSides,
  type MarketSelection,
} from './top-of-book.ts';

export type { Strategy } from './recommendation-scores.ts';

export interface RecommendationQuote {
  market: MarketId;
  price: Cents;
  updated_at: string;
  is_stale: boolean;
}

export interface Recommendation {
  canonical_item_id: string;
  market_hash_name: string;
  suggested_price: Cents | null;
  strategy: Strategy;
  confidence: number;
  liquidity_score: number;
  unstable_reasons: UnstableReason[];
  best_ask: RecommendationQuote | null;
  best_bid: RecommendationQuote | null;
  /** Raw top of book, BID as divisor (as on NBBO); negative when crossed. */
  spread_bps: Bps | null;
  market_count: number;
  fresh_market_count: number;
  listing_count: number;
  /** Distinct buy-order price levels across the cash-executable bid sides. */
  buy_order_count: number;
  total_bid_quantity: number;
  calculated_at: string;
}

export function computeRecommendation(
  item: ItemRef,
  sides: readonly MarketSides[],
  selection: MarketSelection,
  feeModel: FeeModel,
  now: number,
): Recommendation {
  const top = topOfBook(sides, selection, now);
  const counts = countMarkets([...top.asks, ...top.bids], now);
  const reasons = unstableReasons({ ...top, freshMarketCount: counts.freshMarketCount });
  const { strategy, price } = chooseStrategy(top, feeModel);
  const listingCount = sum(top.asks, quoteSize);
  const totalBidQuantity = sum(top.bids, (side) => side.totalQuantity);
  const { bestAsk, bestBid } = top;
  return {
    canonical_item_id: item.id,
    market_hash_name: item.marketHashName,
    suggested_price: price,
    strategy,
    confidence: recommendationConfidence(strategy, reasons),
    liquidity_score: liquidityScore(listingCount, totalBidQuantity, counts.marketCount),
    unstable_reasons: reasons,
    best_ask: top.askSide && snake(topQuote(top.askSide, now)),
    best_bid: top.bidSide && snake(topQuote(top.bidSide, now)),
    spread_bps: spreadState(bestAsk?.price ?? null, bestBid?.price ?? null).spreadBps,
    market_count: counts.marketCount,
    fresh_market_count: counts.freshMarketCount,
    listing_count: listingCount,
    buy_order_count: sum(top.bids, (side) => side.levels.length),
    total_bid_quantity: totalBidQuantity,
    calculated_at: iso(now),
  };
}

/** The suggested list price alone (the strategy's price), for valuing many items at once. */
export function suggestedPrice(
  sides: readonly MarketSides[],
  selection: MarketSelection,
  feeModel: FeeModel,
  now: number,
): Cents | null {
  return chooseStrategy(topOfBook(sides, selection, now), feeModel).price;
}

interface TopOfBook {
  asks: SideSnapshot[];
  /** Cash-executable bid sides of the selected markets. */
  bids: SideSnapshot[];
  askSide: SideSnapshot | null;
  bidSide: SideSnapshot | null;
  bestAsk: TopPrice | null;
  bestBid: TopPrice | null;
}

const topPrice = (side: SideSnapshot, now: number): TopPrice => ({
  price: topLevel(side).price,
  isStale: isStale(side.fetchedAt, now),
});

function topOfBook(
  sides: readonly MarketSides[],
  selection: MarketSelection,
  now: number,
): TopOfBook {
  const asks = askSides(sides, selection);
  const bids = cashBidSides(sides, selection);
  const askSide = bestAskSide(asks);
  const bidSide = bestBidSide(bids);
  return {
    asks,
    bids,
    askSide,
    bidSide,
    bestAsk: askSide && topPrice(askSide, now),
    bestBid: bidSide && topPrice(bidSide, now),
  };
}

interface Choice {
  strategy: Strategy;
  price: Cents | null;
}

function chooseStrategy(top: TopOfBook, feeModel: FeeModel): Choice {
  const { askSide, bidSide, bestAsk, bestBid } = top;
  if (!bestAsk && !bestBid) return { strategy: 'no_data', price: null };
  if (!hasIndependentSupport(top)) return { strategy: 'insufficient_support', price: null };
  if (askSide && bidSide && bestAsk && bestBid) {
    const costs = buyerPays(bestAsk.price, feesFor(feeModel, askSide.market));
    const nets = sellerNets(bestBid.price, feesFor(feeModel, bidSide.market));
    if (nets > costs) return { strategy: 'crossed_best_ask', price: bestAsk.price };
  }
  const askFresh = bestAsk !== null && !bestAsk.isStale;
  const bidFresh = bestBid !== null && !bestBid.isStale;
  if (askFresh && bidFresh) return { strategy: 'midpoint', price: midpoint(bestAsk, bestBid) };
  if (askFresh) return { strategy: 'best_ask_fallback', price: bestAsk.price };
  if (bidFresh) return { strategy: 'best_bid_fallback', price: bestBid.price };
  if (bestAsk && bestBid) return { strategy: 'stale_midpoint', price: midpoint(bestAsk, bestBid) };
  if (bestAsk) return { strategy: 'stale_best_ask_fallback', price: bestAsk.price };
  return { strategy: 'stale_best_bid_fallback', price: bestBid?.price ?? null };
}

/** Halfway between ask and bid, rounded half up to a whole cent. */
export function midpoint(ask: TopPrice, bid: TopPrice): Cents {
  return Math.floor((ask.price + bid.price + 1) / 2);
}

function snake(quote: TopQuote): RecommendationQuote {
  return {
    market: quote.market,
    price: quote.price,
    updated_at: quote.updatedAt,
    is_stale: quote.isStale,
  };
}

function sum(sides: readonly SideSnapshot[], value: (side: SideSnapshot) => number): number {
  return sides.reduce((total, side) => total + value(side), 0);
}
