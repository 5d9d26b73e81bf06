/**
 * The pricing snapshot of one item (`GET /v1/pricing/:marketHashName`), built from the book's
 * per-market sides. Pure: `now` is an argument. Rules written down in docs/api/pricing.md:
 * - `markets[]` holds one row per market with a non-empty ask side (its best ask), cheapest
 *   first; `buyOrders[]` one row per market with a non-empty bid side, highest first. Every
 *   selected market's bid is listed; only `bestBid` applies the cash-only rule.
 * - quoteSize is the side's listing/order count, or the levels' order counts (quantity where
 *   orders are unknown) when the source gives no count.
 * - `aggregate` describes the representative asks and is null when there are none.
 * - spreadBps divides the gap by the bid (as NBBO does); null when a side is missing, the book
 *   is crossed, or the gap exceeds 10000 bps.
 * - The top-level marketCount counts markets with an ask or a bid; freshMarketCount those with
 *   at least one fresh side.
 */
import type { MarketSides } from '../book/book.ts';
import { iso } from '../domain/clock.ts';
import { isStale } from '../domain/freshness.ts';
import type { MarketId } from '../domain/markets.ts';
import type { SideSnapshot } from '../domain/quote.ts';
import { quoteSize } from './book-view.ts';
import { priceStats } from './stats.ts';
import {
  askSides,
  bestAskSide,
  bestBidSide,
  eligibleBidSides,
  selectMarkets,
  spreadState,
  type MarketSelection,
} from './top-of-book.ts';

/** Re-exported for the modules that read it from here (one definition, in book-view.ts). */
export { quoteSize };

export const MAX_SPREAD_BPS = 10_000;

interface QuoteBase {
  market: MarketId;
  price: number;
  currency: 'USD';
  fetchedAt: string;
  ingestedAt: string;
  quoteSize: number;
}

export interface AskQuote extends QuoteBase {
  ingestLatencyMs: number;
  isStale: boolean;
  sourceUpdatedAt: string | null;
  sourceTimeKind: string | null;
  sourceAgeSeconds: number | null;
}

export interface BidQuote extends QuoteBase {
  totalQuantity: number;
  ingestLatencyMs: number;
  isStale: boolean;
}

export interface TopOfBook {
  market: MarketId;
  price: number;
  updatedAt: string;
  isStale: boolean;
}

export interface SnapshotAggregate {
  minPrice: number;
  maxPrice: number;
  avgPrice: number;
  medianPrice: number;
  stdDev: number;
  marketCount: number;
  freshMarketCount: number;
  listingCount: number;
  updatedAt: string;
}

export interface PricingSnapshot {
  canonicalItemId: string;
  name: string;
  aggregate: SnapshotAggregate | null;
  markets: AskQuote[];
  buyOrders: BidQuote[];
  bestAsk: TopOfBook | null;
  bestBid: TopOfBook | null;
  spreadBps: number | null;
  marketCount: number;
  freshMarketCount: number;
  calculatedAt: string;
}

export interface SnapshotItem {
  id: string;
  marketHashName: string;
}

function bestPrice(side: SideSnapshot): number {
  return side.levels[0]!.price;
}

interface SideTimes {
  /** The ms values the strings were made from (a mutated side is noticed and re-rendered). */
  from: readonly [number, number, number | null];
  fetchedAt: string;
  ingestedAt: string;
  sourceUpdatedAt: string | null;
}

/** ISO strings of a side's times, computed once per side object (the book replaces sides). */
const timesCache = new WeakMap<SideSnapshot, SideTimes>();

/** ISO strings by ms, bounded: a fetch's sides share their times, so new side objects hit. */
const isoByMs = new Map<number, string>();
const ISO_HELD = 4096;

function isoOf(ms: number): string {
  let text = isoByMs.get(ms);
  if (text === undefined) {
    if (isoByMs.size >= ISO_HELD) isoByMs.clear();
    text = iso(ms);
    isoByMs.set(ms, text);
  }
  return text;
}

export function sideTimes(side: SideSnapshot): SideTimes {
  let times = timesCache.get(side);
  const [fetched, ingested, source] = times?.from ?? [];
  if (
    !times ||
    fetched !== side.fetchedAt ||
    ingested !== side.ingestedAt ||
    source !== side.sourceUpdatedAt
  ) {
    times = {
      from: [side.fetchedAt, side.ingestedAt, side.sourceUpdatedAt],
      fetchedAt: isoOf(side.fetchedAt),
      ingestedAt: isoOf(side.ingestedAt),
      sourceUpdatedAt: side.sourceUpdatedAt == null ? null : isoOf(side.sourceUpdatedAt),
    };
    timesCache.set(side, times);
  }
  return times;
}

function ingestLatency(side: SideSnapshot): number {
  return Math.max(0, side.ingestedAt - side.fetchedAt);
}

/** Age of the source-side time when the quote was fetched, whole seconds (null if unknown). */
export function sourceAgeSeconds(side: SideSnapshot): number | null {
  if (side.sourceUpdatedAt === null) return null;
  return Math.max(0, Math.floor((side.fetchedAt - side.sourceUpdatedAt) / 1000));
}

export function askQuote(side: SideSnapshot, now: number): AskQuote {
  const times = sideTimes(side);
  return {
    market: side.market,
    price: bestPrice(side),
    currency: 'USD',
    fetchedAt: times.fetchedAt,
    ingestedAt: times.ingestedAt,
    quoteSize: quoteSize(side),
    ingestLatencyMs: ingestLatency(side),
    isStale: isStale(side.fetchedAt, now),
    sourceUpdatedAt: times.sourceUpdatedAt,
    sourceTimeKind: side.sourceTimeKind,
    sourceAgeSeconds: sourceAgeSeconds(side),
  };
}

export function bidQuote(side: SideSnapshot, now: number): BidQuote {
  const times = sideTimes(side);
  return {
    market: side.market,
    price: bestPrice(side),
    currency: 'USD',
    fetchedAt: times.fetchedAt,
    ingestedAt: times.ingestedAt,
    quoteSize: quoteSize(side),
    totalQuantity: side.totalQuantity,
    ingestLatencyMs: ingestLatency(side),
    isStale: isStale(side.fetchedAt, now),
  };
}

export function topOfBook(side: SideSnapshot | null, now: number): TopOfBook | null {
  if (!side) return null;
  return {
    market: side.market,
    price: bestPrice(side),
    updatedAt: sideTimes(side).fetchedAt,
    isStale: isStale(side.fetchedAt, now),
  };
}

/** Gap between ask and bid in bps of the bid, or null (missing side, crossed, over 10000). */
export function pricingSpreadBps(ask: number | null, bid: number | null): number | null {
  const { spreadBps, crossed } = spreadState(ask, bid);
  return spreadBps === null || crossed || spreadBps > MAX_SPREAD_BPS ? null : spreadBps;
}

/** Aggregate over representative asks (one per market); null when there are none. */
export function askAggregate(asks: readonly SideSnapshot[], now: number): SnapshotAggregate | null {
  const stats = priceStats(asks.map(bestPrice));
  if (!stats) return null;
  let fresh = 0;
  let listings = 0;
  let updatedAt = 0;
  for (const side of asks) {
    if (!isStale(side.fetchedAt, now)) fresh += 1;
    listings += quoteSize(side);
    updatedAt = Math.max(updatedAt, side.fetchedAt);
  }
  return {
    ...stats,
    marketCount: asks.length,
    freshMarketCount: fresh,
    listingCount: listings,
    updatedAt: iso(updatedAt),
  };
}

const byMarket = (a: SideSnapshot, b: SideSnapshot) => a.market.localeCompare(b.market);

function marketCounts(sides: readonly MarketSides[], now: number) {
  let contributing = 0;
  let fresh = 0;
  for (const entry of sides) {
    const present = [entry.ask, entry.bid].filter((side) => side && side.levels.length > 0);
    if (present.length === 0) continue;
    contributing += 1;
    if (present.some((side) => !isStale(side!.fetchedAt, now))) fresh += 1;
  }
  return { contributing, fresh };
}

function bidSides(sides: readonly MarketSides[]): SideSnapshot[] {
  const out: SideSnapshot[] = [];
  for (const entry of sides) if (entry.bid && entry.bid.levels.length > 0) out.push(entry.bid);
  return out;
}

export function pricingSnapshot(
  item: SnapshotItem,
  sides: readonly MarketSides[],
  selection: MarketSelection,
  now: number,
): PricingSnapshot {
  const selected = selectMarkets(sides, selection);
  const asks = askSides(sides, selection).sort(
    (a, b) => bestPrice(a) - bestPrice(b) || byMarket(a, b),
  );
  const bids = bidSides(selected).sort((a, b) => bestPrice(b) - bestPrice(a) || byMarket(a, b));
  const bestAsk = topOfBook(bestAskSide(asks), now);
  const bestBid = topOfBook(bestBidSide(eligibleBidSides(sides, selection)), now);
  const counts = marketCounts(selected, now);
  return {
    canonicalItemId: item.id,
    name: item.marketHashName,
    aggregate: askAggregate(asks, now),
    markets: asks.map((side) => askQuote(side, now)),
    buyOrders: bids.map((side) => bidQuote(side, now)),
    bestAsk,
    bestBid,
    spreadBps: pricingSpreadBps(bestAsk?.price ?? null, bestBid?.price ?? null),
    marketCount: counts.contributing,
    freshMarketCount: counts.fresh,
    calculatedAt: iso(now),
  };
}
