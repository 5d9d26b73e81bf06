/**
 * The top-of-book rules, in one place for pricing, NBBO, recommendations and aggregations.
 * Best-bid rule: with no explicit `markets` list only cash-executable markets' bids count;
 * with an explicit list every listed market's bid is taken verbatim (wallet credit included).
 */
import type { MarketSides } from '../book/book.ts';
import { isCashExecutable, type MarketId } from '../domain/markets.ts';
import { spreadBps, type Bps, type Cents } from '../domain/money.ts';
import type { SideSnapshot } from '../domain/quote.ts';

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
    if (selection.markets === null && !isCashExecutable(entry.market)) continue;
    out.push(bid);
  }
  return out;
}

/** Cheapest ask; ties go to the most recently fetched quote, then market id order. */
export function bestAskSide(asks: readonly SideSnapshot[]): SideSnapshot | null {
  return pickBest(asks, (a, b) => a.levels[0]!.price - b.levels[0]!.price);
}

/** Highest bid; same tie-break as the ask. */
export function bestBidSide(bids: readonly SideSnapshot[]): SideSnapshot | null {
  return pickBest(bids, (a, b) => b.levels[0]!.price - a.levels[0]!.price);
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

/**
 * Spread of an ask over a bid in bps of the BID (negative when crossed); null when a side is
 * missing or the bid is not positive. Locked: equal prices; crossed: bid above ask.
 */
export function spreadState(ask: Cents | null, bid: Cents | null): SpreadState {
  if (ask === null || bid === null) return { spreadBps: null, locked: false, crossed: false };
  return { spreadBps: spreadBps(ask, bid, bid), locked: bid === ask, crossed: bid > ask };
}
