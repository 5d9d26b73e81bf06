/**
 * Read views over the book that are costly to recompute per request (quoted items in catalog
 * order, per-market listing stats); each is cached until the game's book version moves.
 * Also merges the book and the fetch history into "last successful fetch per market".
 */
import type { Book, MarketSides } from '../book/book.ts';
import type { Catalog } from '../catalog/catalog.ts';
import { DAY } from '../domain/clock.ts';
import type { Game } from '../domain/games.ts';
import type { CatalogItem } from '../domain/item.ts';
import type { MarketId } from '../domain/markets.ts';
import type { FetchRecord } from '../domain/quote.ts';
import { collectMarketBookStats, type MarketBookStats } from '../pricing/market-health.ts';
import type { MarketSelection } from '../pricing/top-of-book.ts';
import type { FetchHistory } from './deps.ts';

interface Cached<T> {
  version: number;
  value: T;
}

export function hasQuotes(sides: readonly MarketSides[], selection: MarketSelection): boolean {
  return sides.some(
    (entry) =>
      (selection.markets === null || selection.markets.has(entry.market)) &&
      ((entry.ask?.levels.length ?? 0) > 0 || (entry.bid?.levels.length ?? 0) > 0),
  );
}

export class BookViews {
  private readonly positions = new Map<Game, Map<string, number>>();
  private readonly quoted = new Map<Game, Cached<CatalogItem[]>>();
  private readonly stats = new Map<Game, Cached<Map<MarketId, MarketBookStats>>>();

  constructor(
    private readonly book: Book,
    private readonly catalogs: Readonly<Record<Game, Catalog>>,
  ) {}

  /** Items with at least one non-empty side, in catalog order. */
  quotedItems(game: Game): CatalogItem[] {
    const version = this.book.version(game);
    const held = this.quoted.get(game);
    if (held && held.version === version) return held.value;
    const catalog = this.catalogs[game];
    const positions = this.positionsOf(game);
    const items: CatalogItem[] = [];
    for (const id of this.book.quotedItemIds(game)) {
      const item = catalog.byId(id);
      if (item && hasQuotes(this.book.sides(game, id), { markets: null })) items.push(item);
    }
    items.sort((a, b) => positions.get(a.id)! - positions.get(b.id)!);
    this.quoted.set(game, { version, value: items });
    return items;
  }

  marketStats(game: Game): Map<MarketId, MarketBookStats> {
    const version = this.book.version(game);
    const held = this.stats.get(game);
    if (held && held.version === version) return held.value;
    const ids = [...this.book.quotedItemIds(game)];
    const value = collectMarketBookStats(ids.map((id) => this.book.sides(game, id)));
    this.stats.set(game, { version, value });
    return value;
  }

  private positionsOf(game: Game): Map<string, number> {
    let positions = this.positions.get(game);
    if (!positions) {
      positions = new Map(this.catalogs[game].items.map((item, index) => [item.id, index]));
      this.positions.set(game, positions);
    }
    return positions;
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
