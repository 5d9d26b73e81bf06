/**
 * Cross-market arbitrage: buy at one market's best ask, sell into another market's best
 * cash-executable bid. Per item the best qualifying pair is reported, with the net after the
 * buy market's buyer fee and the sell market's seller fee and flat withdrawal fee. Stale quotes
 * may be paired, but never silently: the leg carries `isStale` and `feeNotes` a `stale_quote:`
 * entry.
 */
import { iso } from '../domain/clock.ts';
import type { MarketSides } from '../book/book.ts';
import { badRequest } from '../domain/errors.ts';
import { integerProblems } from '../domain/parameter-sentences.ts';
import type { CatalogItem } from '../domain/item.ts';
import { MARKETS_BY_GAME, type MarketId } from '../domain/markets.ts';
import { bpsOf, spreadBps, type Bps, type Cents } from '../domain/money.ts';
import type { SideSnapshot } from '../domain/quote.ts';
import { feesFor, isCashMarket, type FeeModel } from '../markets/fees.ts';
import { ageMs, quoteSize, topLevel, topQuote } from './book-view.ts';
import { buyerPays } from './execution.ts';
import { arbitrageFeeNotes } from './arbitrage-notes.ts';
import { askSides, cashBidSides, type MarketSelection } from './top-of-book.ts';

export type ArbitrageSort = 'estimatedNetCents' | 'spreadBps';

export interface ArbitrageOptions {
  /** 1..100. */
  limit: number;
  /** Minimum gross spread, in bps of the buy price. */
  minSpreadBps: Bps;
  /** Minimum capital at the buy price for the tradable quantity. */
  minNotionalCents: Cents;
  sort: ArbitrageSort;
  markets: ReadonlySet<MarketId> | null;
}

/** The most opportunities one answer lists (`limit`). */
export const MAX_OPPORTUNITIES = 100;
/** How many items a request evaluates (`candidateLimit`): those quoted on the most markets. */
export const MIN_CANDIDATE_LIMIT = 50;
export const MAX_CANDIDATE_LIMIT = 2000;
export const DEFAULT_CANDIDATE_LIMIT = 500;

export const DEFAULT_ARBITRAGE_OPTIONS: ArbitrageOptions = {
  limit: 50,
  minSpreadBps: 200,
  minNotionalCents: 1000,
  sort: 'estimatedNetCents',
  markets: null,
};

export type ArbitrageItem = Pick<CatalogItem, 'id' | 'marketHashName' | 'slug' | 'image'>;

export interface ArbitrageCandidate {
  item: ArbitrageItem;
  sides: readonly MarketSides[];
}

export interface ArbitrageLeg {
  market: MarketId;
  price: Cents;
  /** Listings (buy leg) or buy orders (sell leg) behind the quote (see quoteSize). */
  quoteSize: number;
  updatedAt: string;
  isStale: boolean;
}

export interface Opportunity {
  canonicalItemId: string;
  marketHashName: string;
  slug: string;
  imageUrl: string | null;
  buy: ArbitrageLeg;
  sell: ArbitrageLeg;
  /** (sell − buy) in bps of the BUY price: the gross return on the capital spent. */
  spreadBps: Bps;
  spreadCents: Cents;
  /** For maxTradableQuantity units, after all fees; one withdrawal fee per opportunity. */
  estimatedNetCents: Cents;
  /** min(units at the best ask, units at the best bid), at least 1. */
  maxTradableQuantity: number;
  /** Buy price × maxTradableQuantity. */
  estimatedNotionalCents: Cents;
  feeNotes: string;
  freshness: { buyAgeMs: number; sellAgeMs: number };
  calculatedAt: string;
}

export interface ArbitrageResult {
  opportunities: Opportunity[];
  /** Candidate items evaluated. */
  totalCandidates: number;
  calculatedAt: string;
}

/** The markets an arbitrage may sell into: the cs2 markets that are cash markets. */
export function arbitrageSellMarkets(feeModel: FeeModel): MarketId[] {
  return MARKETS_BY_GAME.cs2.filter((market) => isCashMarket(market, feeModel));
}

export function findOpportunities(
  candidates: readonly ArbitrageCandidate[],
  options: ArbitrageOptions,
  feeModel: FeeModel,
  now: number,
): ArbitrageResult {
  const problems = integerProblems('limit', options.limit, 1, MAX_OPPORTUNITIES);
  if (problems.length > 0) throw badRequest(problems);
  const found: Opportunity[] = [];
  for (const candidate of candidates) {
    const best = bestPair(candidate, options, feeModel, now);
    if (best) found.push(best);
  }
  found.sort(
    (a, b) =>
      compareOpportunities(a, b, options.sort) ||
      a.canonicalItemId.localeCompare(b.canonicalItemId),
  );
  return {
    opportunities: found.slice(0, options.limit),
    totalCandidates: candidates.length,
    calculatedAt: iso(now),
  };
}

/** The numbers that decide whether and how well a pair qualifies; legs are the book's sides. */
interface PairEconomics {
  buy: SideSnapshot;
  sell: SideSnapshot;
  quantity: number;
  spreadBps: Bps;
  estimatedNetCents: Cents;
  estimatedNotionalCents: Cents;
}

function pairEconomics(ask: SideSnapshot, bid: SideSnapshot, feeModel: FeeModel): PairEconomics {
  const askTop = topLevel(ask);
  const bidTop = topLevel(bid);
  const buyFees = feesFor(feeModel, ask.market);
  const sellFees = feesFor(feeModel, bid.market);
  const quantity = Math.max(1, Math.min(askTop.quantity, bidTop.quantity));
  const unitCost = buyerPays(askTop.price, buyFees);
  const unitProceeds = bidTop.price - bpsOf(bidTop.price, sellFees.sellerFeeBps);
  return {
    buy: ask,
    sell: bid,
    quantity,
    spreadBps: spreadBps(bidTop.price, askTop.price, askTop.price) ?? 0,
    estimatedNetCents: quantity * (unitProceeds - unitCost) - sellFees.withdrawalFlatCents,
    estimatedNotionalCents: askTop.price * quantity,
  };
}

/**
 * The item's best qualifying pair. Only the numbers are computed per pair, and a bid at or
 * below an ask is skipped unpriced (fees only lower the net, so it cannot be positive); the
 * response object is built for the winner alone.
 */
function bestPair(
  candidate: ArbitrageCandidate,
  options: ArbitrageOptions,
  feeModel: FeeModel,
  now: number,
): Opportunity | null {
  const selection: MarketSelection = { markets: options.markets };
  const asks = askSides(candidate.sides, selection);
  if (asks.length === 0) return null;
  const lowestAsk = Math.min(...asks.map((ask) => topLevel(ask).price));
  const bids = cashBidSides(candidate.sides, selection).filter(
    (side) => topLevel(side).price > lowestAsk && isCashMarket(side.market, feeModel),
  );
  let best: PairEconomics | null = null;
  for (const ask of asks) {
    for (const bid of bids) {
      if (ask.market === bid.market || topLevel(bid).price <= topLevel(ask).price) continue;
      const pair = pairEconomics(ask, bid, feeModel);
      if (!qualifies(pair, options)) continue;
      if (!best || compareOpportunities(pair, best, options.sort) < 0) best = pair;
    }
  }
  return best && opportunity(candidate.item, best, feeModel, now);
}

export function pairOpportunity(
  item: ArbitrageItem,
  ask: SideSnapshot,
  bid: SideSnapshot,
  feeModel: FeeModel,
  now: number,
): Opportunity {
  return opportunity(item, pairEconomics(ask, bid, feeModel), feeModel, now);
}

function opportunity(
  item: ArbitrageItem,
  pair: PairEconomics,
  feeModel: FeeModel,
  now: number,
): Opportunity {
  const buy = leg(pair.buy, now);
  const sell = leg(pair.sell, now);
  const buyFees = feesFor(feeModel, buy.market);
  const sellFees = feesFor(feeModel, sell.market);
  return {
    canonicalItemId: item.id,
    marketHashName: item.marketHashName,
    slug: item.slug,
    imageUrl: item.image ?? null,
    buy,
    sell,
    spreadBps: pair.spreadBps,
    spreadCents: sell.price - buy.price,
    estimatedNetCents: pair.estimatedNetCents,
    maxTradableQuantity: pair.quantity,
    estimatedNotionalCents: pair.estimatedNotionalCents,
    feeNotes: arbitrageFeeNotes(buy, sell, buyFees, sellFees, feeModel.version),
    freshness: {
      buyAgeMs: ageMs(pair.buy.fetchedAt, now),
      sellAgeMs: ageMs(pair.sell.fetchedAt, now),
    },
    calculatedAt: iso(now),
  };
}

/** Positive net after fees, and at least the requested spread and notional. */
function qualifies(pair: PairEconomics, options: ArbitrageOptions): boolean {
  return (
    pair.estimatedNetCents > 0 &&
    pair.spreadBps >= options.minSpreadBps &&
    pair.estimatedNotionalCents >= options.minNotionalCents
  );
}

interface Ranked {
  estimatedNetCents: Cents;
  spreadBps: Bps;
  buy: { market: MarketId };
  sell: { market: MarketId };
}

/** Negative when `a` ranks before `b`: the sort key descending, then the other key. */
function compareOpportunities(a: Ranked, b: Ranked, sort: ArbitrageSort): number {
  const byNet = b.estimatedNetCents - a.estimatedNetCents;
  const bySpread = b.spreadBps - a.spreadBps;
  const primary = sort === 'spreadBps' ? bySpread || byNet : byNet || bySpread;
  return (
    primary ||
    a.buy.market.localeCompare(b.buy.market) ||
    a.sell.market.localeCompare(b.sell.market)
  );
}

function leg(side: SideSnapshot, now: number): ArbitrageLeg {
  const { market, price, updatedAt, isStale } = topQuote(side, now);
  return { market, price, quoteSize: quoteSize(side), updatedAt, isStale };
}
