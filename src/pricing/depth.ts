/**
 * Order-book depth merged across markets: asks cheapest first, bids highest first, one merged
 * level per distinct price with the per-market quotes behind it and a running cumulative
 * quantity. Bids follow the best-bid rule. A market that only gives a top of book contributes
 * one level. The output does not depend on the order of the input markets.
 */
import { iso } from '../domain/clock.ts';
import type { MarketSides } from '../book/book.ts';
import { badRequest } from '../domain/errors.ts';
import { integerProblems } from '../domain/parameter-sentences.ts';
import { isStale } from '../domain/freshness.ts';
import type { MarketId } from '../domain/markets.ts';
import type { Bps, Cents } from '../domain/money.ts';
import type { Side } from '../domain/observation.ts';
import type { SideSnapshot } from '../domain/quote.ts';
import { countMarkets, type ItemRef } from './book-view.ts';
import { spreadState } from './nbbo.ts';
import { askSides, eligibleBidSides, type MarketSelection } from './top-of-book.ts';

export const MIN_DEPTH = 1;
export const MAX_DEPTH = 50;
export const DEFAULT_DEPTH = 10;

export interface DepthQuote {
  market: MarketId;
  /** 1-based position of the level in that market's own ladder. */
  level: number;
  price: Cents;
  quantity: number;
  ordersCount: number | null;
  updatedAt: string;
  isStale: boolean;
}

export interface DepthLevel {
  rank: number;
  price: Cents;
  quantity: number;
  /** Sum of the known order counts; null when no market at this price counts orders. */
  ordersCount: number | null;
  marketCount: number;
  cumulativeQuantity: number;
  /** Most recent fetch among the quotes at this price. */
  updatedAt: string;
  /** True only when every quote at this price is stale. */
  isStale: boolean;
  quotes: DepthQuote[];
}

export interface Depth {
  marketHashName: string;
  canonicalItemId: string;
  depth: number;
  marketCount: number;
  asks: DepthLevel[];
  bids: DepthLevel[];
  /** Top of book, BID as divisor (as on NBBO); negative when crossed, null when a side is empty. */
  spreadBps: Bps | null;
  locked: boolean;
  crossed: boolean;
  calculatedAt: string;
}

export function computeDepth(
  item: ItemRef,
  sides: readonly MarketSides[],
  selection: MarketSelection,
  depth: number,
  now: number,
): Depth {
  const problems = integerProblems('depth', depth, MIN_DEPTH, MAX_DEPTH);
  if (problems.length > 0) throw badRequest(problems);
  const asks = askSides(sides, selection);
  const bids = eligibleBidSides(sides, selection);
  const askLevels = mergeLadder(asks, 'ask', depth, now);
  const bidLevels = mergeLadder(bids, 'bid', depth, now);
  const spread = spreadState(askLevels[0]?.price ?? null, bidLevels[0]?.price ?? null);
  return {
    marketHashName: item.marketHashName,
    canonicalItemId: item.id,
    depth,
    marketCount: countMarkets([...asks, ...bids], now).marketCount,
    asks: askLevels,
    bids: bidLevels,
    spreadBps: spread.spreadBps,
    locked: spread.locked,
    crossed: spread.crossed,
    calculatedAt: iso(now),
  };
}

interface RawQuote {
  quote: DepthQuote;
  fetchedAt: number;
}

/** Merges the sides' levels by price, best first, and keeps the first `depth` merged levels. */
export function mergeLadder(
  sides: readonly SideSnapshot[],
  side: Side,
  depth: number,
  now: number,
): DepthLevel[] {
  const byPrice = new Map<Cents, RawQuote[]>();
  for (const snapshot of sides) {
    snapshot.levels.forEach((level, index) => {
      const quote: DepthQuote = {
        market: snapshot.market,
        level: index + 1,
        price: level.price,
        quantity: level.quantity,
        ordersCount: level.orders,
        updatedAt: iso(snapshot.fetchedAt),
        isStale: isStale(snapshot.fetchedAt, now),
      };
      const atPrice = byPrice.get(level.price);
      if (atPrice) atPrice.push({ quote, fetchedAt: snapshot.fetchedAt });
      else byPrice.set(level.price, [{ quote, fetchedAt: snapshot.fetchedAt }]);
    });
  }
  const prices = [...byPrice.keys()].sort((a, b) => (side === 'ask' ? a - b : b - a));
  const levels: DepthLevel[] = [];
  let cumulative = 0;
  for (const price of prices.slice(0, depth)) {
    const level = mergedLevel(levels.length + 1, price, byPrice.get(price) ?? [], cumulative);
    cumulative = level.cumulativeQuantity;
    levels.push(level);
  }
  return levels;
}

function mergedLevel(
  rank: number,
  price: Cents,
  raw: readonly RawQuote[],
  cumulativeBefore: number,
): DepthLevel {
  const quotes = raw
    .map((entry) => entry.quote)
    .sort((a, b) => a.market.localeCompare(b.market) || a.level - b.level);
  const quantity = quotes.reduce((sum, quote) => sum + quote.quantity, 0);
  const counted = quotes.filter((quote) => quote.ordersCount !== null);
  const latest = Math.max(...raw.map((entry) => entry.fetchedAt));
  return {
    rank,
    price,
    quantity,
    ordersCount:
      counted.length === 0 ? null : counted.reduce((sum, quote) => sum + quote.ordersCount!, 0),
    marketCount: new Set(quotes.map((quote) => quote.market)).size,
    cumulativeQuantity: cumulativeBefore + quantity,
    updatedAt: iso(latest),
    isStale: quotes.every((quote) => quote.isStale),
    quotes,
  };
}
