/**
 * Read views over the book that would be costly per request (quoted items in catalog order, by
 * market selection, arbitrage candidates, per-market listing stats), served from indexes the
 * book keeps current as batches apply (`book-index.ts`). Also merges the book and the fetch
 * history into "last successful fetch per market".
 */
import type { Book, MarketSides } from '../book/book.ts';
import type { Catalog } from '../catalog/catalog.ts';
import { DAY } from '../domain/clock.ts';
import type { Game } from '../domain/games.ts';
import type { CatalogItem } from '../domain/item.ts';
import type { MarketId } from '../domain/markets.ts';
import type { FetchRecord } from '../domain/quote.ts';
import { MAX_CANDIDATE_LIMIT } from '../pricing/arbitrage.ts';
import type { MarketBookStats } from '../pricing/market-health.ts';
import type { MarketSelection } from '../pricing/top-of-book.ts';
import { indexBook, marketMask, type GameIndex } from './book-index.ts';
import type { FetchHistory } from './deps.ts';

export function hasQuotes(sides: readonly MarketSides[], selection: MarketSelection): boolean {
  return sides.some(
    (entry) =>
      (selection.markets === null || selection.markets.has(entry.market)) &&
      ((entry.ask?.levels.length ?? 0) > 0 || (entry.bid?.levels.length ?? 0) > 0),
  );
}

export class BookViews {
  private readonly indexes: Record<Game, GameIndex>;
  /** Stops following the book. */
  readonly close: () => void;

  constructor(book: Book, catalogs: Readonly<Record<Game, Catalog>>) {
    const { indexes, close } = indexBook(book, catalogs, MAX_CANDIDATE_LIMIT);
    this.indexes = indexes;
    this.close = close;
  }

  /** Items with at least one non-empty side, in catalog order. */
  quotedItems(game: Game): CatalogItem[] {
    return this.indexes[game].quotedItems();
  }

  /** Items with a non-empty side in the selected markets, in catalog order. */
  quotedIn(game: Game, selection: MarketSelection): CatalogItem[] {
    return this.indexes[game].quotedIn(marketMask(selection.markets));
  }

  /** Those of `items` with a non-empty side in the selected markets, in their order. */
  filterQuoted(game: Game, items: readonly CatalogItem[], selection: MarketSelection) {
    return this.indexes[game].filterQuoted(items, marketMask(selection.markets));
  }

  /** Quoted items, most quoted markets first (ties in catalog order), at most `limit`. */
  arbitrageCandidates(game: Game, limit: number): CatalogItem[] {
    return this.indexes[game].candidates(limit);
  }

  /**
   * Those of the first `limit` candidates where one of `sellMarkets` bids above the lowest ask
   * of `buyMarkets` (null: every market); no other candidate can hold a profitable pair.
   */
  crossedCandidates(
    game: Game,
    limit: number,
    buyMarkets: Iterable<MarketId> | null,
    sellMarkets: Iterable<MarketId>,
  ): { evaluated: number; crossed: CatalogItem[] } {
    const index = this.indexes[game];
    return index.crossedCandidates(limit, marketMask(buyMarkets), marketMask(sellMarkets));
  }

  marketStats(game: Game): Map<MarketId, MarketBookStats> {
    return this.indexes[game].marketStats();
  }
}

/** This game's fetch records of the last 24 hours. */
export function recentFetches(history: FetchHistory, game: Game, now: number): FetchRecord[] {
  return history.records(now - DAY).filter((record) => record.game === game);
}

/**
 * Latest successful fetch per market: the newest of the book's last fetchedAt, the history's
 * remembered last success and the successes among `records`.
 */
export function lastSuccessByMarket(
  book: Book,
  history: FetchHistory,
  game: Game,
  markets: readonly MarketId[],
  records: readonly FetchRecord[],
): Map<MarketId, number | null> {
  const latest = new Map<MarketId, number | null>(markets.map((market) => [market, null]));
  const note = (market: MarketId, at: number | undefined) => {
    if (at === undefined || !latest.has(market)) return;
    const held = latest.get(market) ?? null;
    if (held === null || at > held) latest.set(market, at);
  };
  for (const [market, at] of book.lastFetchByMarket(game)) note(market, at);
  for (const record of records) if (record.ok) note(record.market, record.fetchedAt);
  if (history.lastSuccess) {
    for (const market of markets) note(market, history.lastSuccess(market, game)?.fetchedAt);
  }
  return latest;
}
