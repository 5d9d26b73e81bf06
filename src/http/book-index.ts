/**
 * Per-game indexes over the book, kept current by a book listener: an applied batch costs work
 * in proportion to the (item, market) pairs it may have touched, so no read scans the book. Per
 * catalog position it holds the item's market mask (bit i: market MARKET_IDS[i] has a non-empty
 * side) and, per market, the top ask and bid prices, the listings behind the ask and the newest
 * quote time. From these: quoted items in catalog order, items quoted in a market selection,
 * arbitrage candidates (most markets first, and which of them have a bid above an ask) and the
 * per-market stats of market health.
 */
import type { Book, MarketTop } from '../book/book.ts';
import type { Catalog } from '../catalog/catalog.ts';
import type { Game } from '../domain/games.ts';
import type { CatalogItem } from '../domain/item.ts';
import { MARKET_IDS, type MarketId } from '../domain/markets.ts';
import type { MarketBookStats } from '../pricing/market-health.ts';

const MARKETS = MARKET_IDS.length;
const MARKET_BIT = new Map<MarketId, number>(MARKET_IDS.map((market, index) => [market, index]));
const ALL_MASK = -1 >>> 0;
const NO_ASK = -1;
const NO_PRICE = 0;
const NO_QUOTE = Number.NaN;

/** The bit mask of `markets` (every market when null). */
export function marketMask(markets: Iterable<MarketId> | null): number {
  if (markets === null) return ALL_MASK;
  let mask = 0;
  for (const market of markets) mask |= 1 << MARKET_BIT.get(market)!;
  return mask >>> 0;
}

function popCount(mask: number): number {
  let count = 0;
  for (let rest = mask; rest !== 0; rest &= rest - 1) count += 1;
  return count;
}

interface MarketTotals {
  askRows: number;
  listings: number;
  /** Newest quote time → how many items' newest quote on the market it is. */
  quoteTimes: Map<number, number>;
}

export class GameIndex {
  private readonly positions: Map<string, number>;
  /** The same, keyed by the catalog's item objects (far cheaper to look up than by id). */
  private readonly itemPositions: Map<CatalogItem, number>;
  private readonly masks: Uint32Array;
  /** Per position × market. */
  private readonly askTop: Int32Array;
  private readonly bidTop: Int32Array;
  private readonly listings: Int32Array;
  private readonly times: Float64Array;
  private readonly totals: MarketTotals[] = MARKET_IDS.map(() => ({
    askRows: 0,
    listings: 0,
    quoteTimes: new Map(),
  }));
  private quoted: CatalogItem[] | null = null;
  private ranked: number[] | null = null;

  constructor(
    private readonly catalog: Catalog,
    private readonly maxCandidates: number,
  ) {
    const size = catalog.items.length;
    this.positions = new Map(catalog.items.map((item, index) => [item.id, index]));
    this.itemPositions = new Map(catalog.items.map((item, index) => [item, index]));
    this.masks = new Uint32Array(size);
    this.askTop = new Int32Array(size * MARKETS);
    this.bidTop = new Int32Array(size * MARKETS);
    this.listings = new Int32Array(size * MARKETS).fill(NO_ASK);
    this.times = new Float64Array(size * MARKETS).fill(NO_QUOTE);
  }

  /** Re-reads the given markets of the given items. */
  update(
    itemIds: Iterable<string>,
    markets: Iterable<MarketId>,
    topOf: (itemId: string, market: MarketId) => MarketTop | undefined,
  ): void {
    const touched = [...markets].filter((market) => MARKET_BIT.has(market));
    for (const id of itemIds) {
      const position = this.positions.get(id);
      if (position === undefined) continue;
      let mask = this.masks[position]!;
      for (const market of touched) {
        const bit = MARKET_BIT.get(market)!;
        const quoted = this.updateMarket(position, bit, topOf(id, market));
        mask = quoted ? mask | (1 << bit) : mask & ~(1 << bit);
      }
      this.setMask(position, mask >>> 0);
    }
  }

  /** Items with at least one non-empty side, in catalog order. */
  quotedItems(): CatalogItem[] {
    this.quoted ??= this.collect(ALL_MASK);
    return this.quoted;
  }

  /** Items quoted in at least one market of `mask`, in catalog order. */
  quotedIn(mask: number): CatalogItem[] {
    return mask >>> 0 === ALL_MASK ? this.quotedItems() : this.collect(mask);
  }

  /** Those of `items` quoted in at least one market of `mask`, in their order. */
  filterQuoted(items: readonly CatalogItem[], mask: number): CatalogItem[] {
    return items.filter((item) => {
      const position = this.itemPositions.get(item) ?? this.positions.get(item.id);
      return position !== undefined && (this.masks[position]! & mask) !== 0;
    });
  }

  /** The first `limit` quoted items by number of quoted markets, ties in catalog order. */
  candidates(limit: number): CatalogItem[] {
    return this.rankedPositions()
      .slice(0, limit)
      .map((position) => this.catalog.items[position]!);
  }

  /**
   * Of the first `limit` candidates, those where a market of `sellMask` bids above the lowest
   * ask of `buyMask`: only these can hold a pair with a positive net.
   */
  crossedCandidates(limit: number, buyMask: number, sellMask: number) {
    const evaluated = this.rankedPositions().slice(0, limit);
    const crossed: CatalogItem[] = [];
    for (const position of evaluated) {
      if (this.highestBid(position, sellMask) > this.lowestAsk(position, buyMask)) {
        crossed.push(this.catalog.items[position]!);
      }
    }
    return { evaluated: evaluated.length, crossed };
  }

  marketStats(): Map<MarketId, MarketBookStats> {
    const stats = new Map<MarketId, MarketBookStats>();
    this.totals.forEach((totals, index) => {
      if (totals.quoteTimes.size > 0) stats.set(MARKET_IDS[index]!, totals);
    });
    return stats;
  }

  /** Stores one market's top prices and health contribution; true when it quotes anything. */
  private updateMarket(position: number, market: number, top: MarketTop | undefined) {
    const askPrice = top?.askPrice ?? null;
    const bidPrice = top?.bidPrice ?? null;
    const slot = position * MARKETS + market;
    this.askTop[slot] = askPrice ?? NO_PRICE;
    this.bidTop[slot] = bidPrice ?? NO_PRICE;
    const time = top?.fetchedAt ?? NO_QUOTE;
    this.setContribution(slot, market, askPrice === null ? NO_ASK : top!.askSize, time);
    return askPrice !== null || bidPrice !== null;
  }

  private setContribution(slot: number, market: number, listings: number, time: number): void {
    const totals = this.totals[market]!;
    const oldListings = this.listings[slot]!;
    const oldTime = this.times[slot]!;
    if (oldListings === listings && Object.is(oldTime, time)) return;
    if (oldListings !== NO_ASK) {
      totals.askRows -= 1;
      totals.listings -= oldListings;
    }
    if (!Number.isNaN(oldTime)) bump(totals.quoteTimes, oldTime, -1);
    if (listings !== NO_ASK) {
      totals.askRows += 1;
      totals.listings += listings;
    }
    if (!Number.isNaN(time)) bump(totals.quoteTimes, time, 1);
    this.listings[slot] = listings;
    this.times[slot] = time;
  }

  private setMask(position: number, mask: number): void {
    const before = this.masks[position]!;
    if (mask === before) return;
    this.masks[position] = mask;
    if ((mask === 0) !== (before === 0)) this.quoted = null;
    if (popCount(mask) !== popCount(before)) this.ranked = null;
  }

  private lowestAsk(position: number, mask: number): number {
    let lowest = Infinity;
    for (let rest = this.masks[position]! & mask; rest !== 0; rest &= rest - 1) {
      const price = this.askTop[position * MARKETS + 31 - Math.clz32(rest & -rest)]!;
      if (price !== NO_PRICE && price < lowest) lowest = price;
    }
    return lowest;
  }

  private highestBid(position: number, mask: number): number {
    let highest = -Infinity;
    for (let rest = this.masks[position]! & mask; rest !== 0; rest &= rest - 1) {
      const price = this.bidTop[position * MARKETS + 31 - Math.clz32(rest & -rest)]!;
      if (price !== NO_PRICE && price > highest) highest = price;
    }
    return highest;
  }

  private collect(mask: number): CatalogItem[] {
    const items: CatalogItem[] = [];
    const all = this.catalog.items;
    for (let position = 0; position < this.masks.length; position += 1) {
      if ((this.masks[position]! & mask) !== 0) items.push(all[position]!);
    }
    return items;
  }

  /** Bucketed by market count: one pass over the masks, no sort of the whole catalog. */
  private rankedPositions(): number[] {
    if (this.ranked) return this.ranked;
    const buckets: number[][] = Array.from({ length: MARKETS + 1 }, () => []);
    for (let position = 0; position < this.masks.length; position += 1) {
      const mask = this.masks[position]!;
      if (mask !== 0) buckets[popCount(mask)]!.push(position);
    }
    this.ranked = buckets.reverse().flat().slice(0, this.maxCandidates);
    return this.ranked;
  }
}

function bump(counts: Map<number, number>, key: number, by: number): void {
  const next = (counts.get(key) ?? 0) + by;
  if (next === 0) counts.delete(key);
  else counts.set(key, next);
}

/** One index per game, filled from the book's current state and following its changes. */
export function indexBook(
  book: Book,
  catalogs: Readonly<Record<Game, Catalog>>,
  maxCandidates: number,
): { indexes: Record<Game, GameIndex>; close: () => void } {
  const indexFor = (game: Game) => {
    const index = new GameIndex(catalogs[game], maxCandidates);
    const topOf = (id: string, market: MarketId) => book.marketTop(game, id, market);
    index.update(book.quotedItemIds(game), MARKET_IDS, topOf);
    return index;
  };
  const indexes: Record<Game, GameIndex> = { cs2: indexFor('cs2'), rust: indexFor('rust') };
  const close = book.onChange((change) => {
    const topOf = (id: string, market: MarketId) => book.marketTop(change.game, id, market);
    indexes[change.game].update(change.itemIds, change.markets, topOf);
  });
  return { indexes, close };
}
