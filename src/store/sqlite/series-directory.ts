/**
 * Series ids (history_series): an item on one market, or market '' for its aggregate. Ids are
 * never reused or changed, so a looked-up id stays valid for every connection.
 */
import type { Game } from '../../domain/games.ts';
import type { MarketId } from '../../domain/markets.ts';
import { marketOrder } from '../../pricing/rollups.ts';
import type { RollupStatements } from './rollup-statements.ts';

export const AGGREGATE_MARKET = '';
/** Cached items before the cache starts over (each holds up to one id per market). */
const MAX_CACHED_ITEMS = 100_000;

/** An item's ids by slot: 0 the aggregate, 1 + market code a market (holes unknown). */
type ItemIds = (number | undefined)[];

const slotOf = (market: MarketId | null) => (market === null ? 0 : marketOrder(market) + 1);

export class SeriesDirectory {
  private known = new Map<Game, Map<string, ItemIds>>();
  private knownItems = 0;

  constructor(private readonly statements: RollupStatements) {}

  find(game: Game, itemId: string, market: MarketId | null): number | null {
    const slot = slotOf(market);
    const cached = this.known.get(game)?.get(itemId)?.[slot];
    if (cached !== undefined) return cached;
    const row = this.statements.findSeries.get(game, itemId, market ?? AGGREGATE_MARKET);
    if (row) this.remember(game, itemId, slot, row.id);
    return row?.id ?? null;
  }

  /** The id of a series, created if missing. Call inside a write transaction. */
  ensure(game: Game, itemId: string, market: MarketId | null): number {
    const found = this.find(game, itemId, market);
    if (found !== null) return found;
    const name = market ?? AGGREGATE_MARKET;
    const id = Number(this.statements.insertSeries.run(game, itemId, name).lastInsertRowid);
    this.remember(game, itemId, slotOf(market), id);
    return id;
  }

  /** A write transaction rolled back: the ids it created do not exist. */
  discard(): void {
    [this.known, this.knownItems] = [new Map(), 0];
  }

  private remember(game: Game, itemId: string, slot: number, id: number): void {
    if (this.knownItems >= MAX_CACHED_ITEMS) this.discard();
    const table = this.known.get(game) ?? this.known.set(game, new Map()).get(game)!;
    if (!table.has(itemId)) this.knownItems += 1;
    const ids = table.get(itemId) ?? table.set(itemId, []).get(itemId)!;
    ids[slot] = id;
  }
}
