/**
 * The in-memory latest state per game: per item × market the ask and bid sides, recent sales
 * and held listings. Reads cost O(markets for the item). Ingest applies batches; listeners
 * hear one change event per applied batch. The sides are packed in typed-array columns
 * (side-store.ts): reads build the objects they return; treat them as read-only.
 */
import type { Game } from '../domain/games.ts';
import type { MarketId } from '../domain/markets.ts';
import type {
  IngestBatch,
  ListingRecord,
  SaleRecord,
  SalesStatsRecord,
  SideSnapshot,
} from '../domain/quote.ts';
import { SideStore, type BestAsk, type MarketSides, type MarketTop } from './side-store.ts';
import { HeldSales } from './held-sales.ts';

export type { BestAsk, MarketSides, MarketTop } from './side-store.ts';

export interface BookChange {
  game: Game;
  itemIds: ReadonlySet<string>;
  markets: ReadonlySet<MarketId>;
  version: number;
}

type Listener = (change: BookChange) => void;

/** Listings held per (item, market): the cheapest of the latest snapshot. */
export const MAX_LISTINGS_PER_MARKET = 500;

class GameBook {
  readonly quotes: SideStore;
  readonly sales: HeldSales;
  readonly listings = new Map<string, Map<string, ListingRecord>>();
  /** Per item: `${market}:${window}` → the latest statistics. */
  readonly salesStats = new Map<string, Map<string, SalesStatsRecord>>();
  readonly lastFetchByMarket = new Map<MarketId, number>();
  version = 0;

  constructor(game: Game, salesRetentionMs: number) {
    this.quotes = new SideStore(game);
    this.sales = new HeldSales(game, salesRetentionMs);
  }
}

export class Book {
  private readonly games: Record<Game, GameBook>;
  private readonly listeners = new Set<Listener>();

  /** Keeps sales younger than this (relative to the item's newest sale) in memory. */
  constructor(salesRetentionMs = 90 * 24 * 3600 * 1000) {
    this.games = {
      cs2: new GameBook('cs2', salesRetentionMs),
      rust: new GameBook('rust', salesRetentionMs),
    };
  }

  apply(batch: IngestBatch): void {
    const touched = new Map<Game, { items: Set<string>; markets: Set<MarketId> }>();
    const touch = (game: Game, itemId: string, market: MarketId) => {
      let entry = touched.get(game);
      if (!entry) touched.set(game, (entry = { items: new Set(), markets: new Set() }));
      entry.items.add(itemId);
      entry.markets.add(market);
    };
    for (const side of batch.sides) {
      this.putSide(side);
      touch(side.game, side.itemId, side.market);
    }
    for (const sale of batch.sales) {
      this.games[sale.game].sales.put(sale);
      touch(sale.game, sale.itemId, sale.market);
    }
    this.replaceListedSnapshots(batch.listings);
    for (const listing of batch.listings) {
      this.putListing(listing);
      touch(listing.game, listing.itemId, listing.market);
    }
    this.boundListings(batch.listings);
    for (const stats of batch.salesStats ?? []) {
      this.putSalesStats(stats);
      touch(stats.game, stats.itemId, stats.market);
    }
    for (const [game, entry] of touched) {
      const book = this.games[game];
      book.version += 1;
      const change = { game, itemIds: entry.items, markets: entry.markets, version: book.version };
      for (const listener of this.listeners) listener(change);
    }
  }

  /** Per-market sides of one item (markets with neither side are absent). */
  sides(game: Game, itemId: string): MarketSides[] {
    return this.games[game].quotes.sides(itemId);
  }

  /** Each market's best ask of one item, without building its sides (bulk rows). */
  bestAsks(game: Game, itemId: string): BestAsk[] {
    return this.games[game].quotes.bestAsks(itemId);
  }

  /** One market's top of book of one item, read without building its sides. */
  marketTop(game: Game, itemId: string, market: MarketId): MarketTop | undefined {
    return this.games[game].quotes.marketTop(itemId, market);
  }

  /** One market's sides of one item (undefined when it has neither). */
  marketSides(game: Game, itemId: string, market: MarketId): MarketSides | undefined {
    return this.games[game].quotes.marketSides(itemId, market);
  }

  sales(game: Game, itemId: string): readonly SaleRecord[] {
    return this.games[game].sales.records(itemId);
  }

  listings(game: Game, itemId: string): ListingRecord[] {
    const held = this.games[game].listings.get(itemId);
    return held ? [...held.values()] : [];
  }

  /** The latest sales statistics of one item, every market and window. */
  salesStats(game: Game, itemId: string): SalesStatsRecord[] {
    const held = this.games[game].salesStats.get(itemId);
    return held ? [...held.values()] : [];
  }

  /** Removes listings of one market for one item that were not seen at or after `sinceMs`. */
  dropListingsBefore(game: Game, itemId: string, market: MarketId, sinceMs: number): void {
    const held = this.games[game].listings.get(itemId);
    if (!held) return;
    for (const [id, listing] of held) {
      if (listing.market === market && listing.fetchedAt < sinceMs) held.delete(id);
    }
  }

  /** Drops every listing (any item, any market) last seen before `beforeMs`. */
  pruneListings(game: Game, beforeMs: number): number {
    let removed = 0;
    for (const held of this.games[game].listings.values()) {
      for (const [key, listing] of held) {
        if (listing.fetchedAt < beforeMs) {
          held.delete(key);
          removed += 1;
        }
      }
    }
    return removed;
  }

  /** Listings held for one item (any market). */
  listingCount(game: Game, itemId: string): number {
    return this.games[game].listings.get(itemId)?.size ?? 0;
  }

  /** Item ids that hold at least one listing. */
  listedItemIds(game: Game): string[] {
    const ids: string[] = [];
    for (const [id, held] of this.games[game].listings) if (held.size > 0) ids.push(id);
    return ids;
  }

  /** Quoted sides of slots `from` to `to` − 1 (SideStore.visitQuoted); returns the slots held. */
  visitQuoted(
    game: Game,
    from: number,
    to: number,
    visit: (market: MarketId, fetchedAt: number) => void,
  ): number {
    return this.games[game].quotes.visitQuoted(from, to, visit);
  }

  /** Item ids that have at least one quote. */
  quotedItemIds(game: Game): IterableIterator<string> {
    return this.games[game].quotes.itemIds();
  }

  /** Latest fetchedAt seen per market (any item, any side). */
  lastFetchByMarket(game: Game): ReadonlyMap<MarketId, number> {
    return this.games[game].lastFetchByMarket;
  }

  version(game: Game): number {
    return this.games[game].version;
  }

  onChange(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private putSide(side: SideSnapshot): void {
    const book = this.games[side.game];
    if (!book.quotes.put(side)) return;
    const last = book.lastFetchByMarket.get(side.market) ?? 0;
    if (side.fetchedAt > last) book.lastFetchByMarket.set(side.market, side.fetchedAt);
  }

  private putSalesStats(stats: SalesStatsRecord): void {
    const book = this.games[stats.game];
    let held = book.salesStats.get(stats.itemId);
    if (!held) book.salesStats.set(stats.itemId, (held = new Map()));
    const key = `${stats.market}:${stats.window}`;
    const current = held.get(key);
    if (current && current.fetchedAt > stats.fetchedAt) return;
    held.set(key, stats);
  }

  /**
   * A batch's listings of one (item, market) are that market's latest snapshot of the item:
   * listings of that pair from older fetches are dropped before they are put.
   */
  private replaceListedSnapshots(listings: readonly ListingRecord[]): void {
    const newest = new Map<string, ListingRecord>();
    for (const listing of listings) {
      const key = `${listing.game}\u0000${listing.itemId}\u0000${listing.market}`;
      const held = newest.get(key);
      if (!held || listing.fetchedAt > held.fetchedAt) newest.set(key, listing);
    }
    for (const listing of newest.values()) {
      this.dropListingsBefore(listing.game, listing.itemId, listing.market, listing.fetchedAt);
    }
  }

  /** Keeps at most MAX_LISTINGS_PER_MARKET (the cheapest) per (item, market) the batch touched. */
  private boundListings(listings: readonly ListingRecord[]): void {
    const seen = new Set<string>();
    for (const { game, itemId, market } of listings) {
      const key = `${game}\u0000${itemId}\u0000${market}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const held = this.games[game].listings.get(itemId)!;
      const own = [...held].filter(([, listing]) => listing.market === market);
      if (own.length <= MAX_LISTINGS_PER_MARKET) continue;
      own.sort(([, a], [, b]) => a.price - b.price);
      for (const [id] of own.slice(MAX_LISTINGS_PER_MARKET)) held.delete(id);
    }
  }

  private putListing(listing: ListingRecord): void {
    const book = this.games[listing.game];
    let held = book.listings.get(listing.itemId);
    if (!held) book.listings.set(listing.itemId, (held = new Map()));
    const key = `${listing.market}:${listing.listingId}`;
    const current = held.get(key);
    if (current && current.fetchedAt > listing.fetchedAt) return;
    held.set(key, listing);
  }
}
