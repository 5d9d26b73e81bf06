/**
 * The top-of-book rules, in one place for pricing, NBBO, recommendations and aggregations.
 * Best-bid rule: with no explicit `markets` list only cash markets' bids count (isCashMarket);
 * with an explicit list every listed market's bid is taken verbatim (wallet credit included).
 */
import type { MarketSides } from '../book/book.ts';
import type { MarketId } from '../domain/markets.ts';
import { spreadBps, type Bps, type Cents } from '../domain/money.ts';
import type { SideSnapshot } from '../domain/quote.ts';
import { isCashMarket } from '../markets/fees.ts';

export interface MarketSelection {
  /** The explicit `markets` list, or null when the caller gave none. */
  markets: ReadonlySet<MarketId> | null;
}

export const ALL_MARKETS: MarketSelection = { markets: null };

/** Markets the caller asked for (all when no list was given). */
export function selectMarkets(sides: readonly MarketSides[], selection: MarketSelection) {
  const wanted = selection.markets;
  return wanted ? sides.filter((entry) => wanted.has(entry.market)) : [...sides];
}

/** Non-empty ask sides of the selected markets. */
export function askSides(
  sides: readonly MarketSides[],
  selection: MarketSelection,
): SideSnapshot[] {
  const out: SideSnapshot[] = [];
  for (const entry of selectMarkets(sides, selection)) {
    if (entry.ask && entry.ask.levels.length > 0) out.push(entry.ask);
  }
  return out;
}

/** Non-empty bid sides eligible under the best-bid rule. */
export function eligibleBidSides(
  sides: readonly MarketSides[],
  selection: MarketSelection,
): SideSnapshot[] {
  const out: SideSnapshot[] = [];
  for (const entry of selectMarkets(sides, selection)) {
    const bid = entry.bid;
    if (!bid || bid.levels.length === 0) continue;
    if (selection.markets === null && !isCashMarket(entry.market)) continue;
    out.push(bid);
  }
  return out;
}

/** Bid sides of the selected markets, cash markets only even when an explicit list names others. */
export function cashBidSides(
  sides: readonly MarketSides[],
  selection: MarketSelection,
): SideSnapshot[] {
  return eligibleBidSides(selectMarkets(sides, selection), ALL_MARKETS);
}

/** Cheapest ask; ties go to the most recently fetched quote, then market id order. */
export function bestAskSide(asks: readonly SideSnapshot[]): SideSnapshot | null {
  return pickBest(asks, (a, b) => a.levels[0]!.price - b.levels[0]!.price);
}

/** Highest bid; same tie-break as the ask. */
export function bestBidSide(bids: readonly SideSnapshot[]): SideSnapshot | null {
  return highestBy(bids, (side) => side.levels[0]!.price);
}

/** The side with the highest `valueOf` (a net price, say), with the best bid's tie-break. */
export function highestBy(
  sides: readonly SideSnapshot[],
  valueOf: (side: SideSnapshot) => number,
): SideSnapshot | null {
  return pickBest(sides, (a, b) => valueOf(b) - valueOf(a));
}

function pickBest(
  candidates: readonly SideSnapshot[],
  byPrice: (a: SideSnapshot, b: SideSnapshot) => number,
): SideSnapshot | null {
  let best: SideSnapshot | null = null;
  for (const candidate of candidates) {
    if (!best) {
      best = candidate;
      continue;
    }
    const order =
      byPrice(candidate, best) ||
      best.fetchedAt - candidate.fetchedAt ||
      candidate.market.localeCompare(best.market);
    if (order < 0) best = candidate;
  }
  return best;
}

export interface SpreadState {
  spreadBps: Bps | null;
  locked: boolean;
  crossed: boolean;
}

/** What a spread is measured against: the bid (live reads) or the mid price (history points). */
export type SpreadBase = 'bid' | 'mid';

/**
 * The one spread rule: an ask over a bid in bps of the base, negative when crossed; null when a
 * side is missing or the base is not positive.
 */
export function quoteSpreadBps(
  ask: Cents | null,
  bid: Cents | null,
  base: SpreadBase = 'bid',
): Bps | null {
  if (ask === null || bid === null) return null;
  return spreadBps(ask, bid, base === 'bid' ? bid : (ask + bid) / 2);
}

/** The spread in bps of the bid (quoteSpreadBps). Locked: equal prices; crossed: bid above ask. */
export function spreadState(ask: Cents | null, bid: Cents | null): SpreadState {
  const spread = quoteSpreadBps(ask, bid);
  if (ask === null || bid === null) return { spreadBps: spread, locked: false, crossed: false };
  return { spreadBps: spread, locked: bid === ask, crossed: bid > ask };
}
