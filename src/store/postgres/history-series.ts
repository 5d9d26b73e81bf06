/**
 * Series ids (history_series) on PostgreSQL: an item on one market, or market '' for its
 * aggregate. Ids are never reused or changed, so a committed id stays valid for every process
 * and is cached; ids created by a batch join the cache only once that batch has committed.
 */
import type { Game } from '../../domain/games.ts';
import type { MarketId } from '../../domain/markets.ts';
import { arrayLiteral } from './array-literal.ts';
import type { Queryable } from './driver.ts';
import { ensureSeries, findSeries, type SeriesRow } from './history-statements.ts';

export const AGGREGATE_MARKET = '';

/** Cached ids before the cache starts over (about 100 bytes each). */
const MAX_CACHED = 500_000;
/** ensureSeries rounds at most (the second sees every series committed meanwhile). */
const ENSURE_ROUNDS = 3;

export interface SeriesName {
  game: Game;
  itemId: string;
  market: string;
}

export function seriesName(game: Game, itemId: string, market: MarketId | null): SeriesName {
  return { game, itemId, market: market ?? AGGREGATE_MARKET };
}

export function seriesNameKey(name: SeriesName): string {
  return `${name.game}\u0000${name.itemId}\u0000${name.market}`;
}

export class PostgresSeriesDirectory {
  private readonly known = new Map<string, number>();

  /** The id of an existing series, or null. */
  async find(db: Queryable, name: SeriesName): Promise<number | null> {
    const key = seriesNameKey(name);
    const cached = this.known.get(key);
    if (cached !== undefined) return cached;
    const result = await db.query<[number]>(findSeries([name.game, name.itemId, name.market]));
    const id = result.rows[0]?.[0] ?? null;
    if (id !== null) this.remember(key, id);
    return id;
  }

  /**
   * Ids of every named series (keyed by seriesNameKey), created where missing. Call inside the
   * batch's transaction; pass the result to commit() once it has committed.
   */
  async ensure(db: Queryable, names: Iterable<SeriesName>): Promise<Map<string, number>> {
    const ids = new Map<string, number>();
    let missing: SeriesName[] = [];
    for (const name of names) {
      const key = seriesNameKey(name);
      const cached = this.known.get(key);
      if (cached !== undefined) ids.set(key, cached);
      else if (!ids.has(key)) {
        ids.set(key, -1);
        missing.push(name);
      }
    }
    for (let round = 0; missing.length > 0 && round < ENSURE_ROUNDS; round += 1) {
      const result = await db.query<SeriesRow>(
        ensureSeries([
          arrayLiteral('text', missing, (name) => name.game),
          arrayLiteral('text', missing, (name) => name.itemId),
          arrayLiteral('text', missing, (name) => name.market),
        ]),
      );
      for (const [id, game, itemId, market] of result.rows) {
        ids.set(seriesNameKey({ game: game as Game, itemId, market }), id);
      }
      missing = missing.filter((name) => ids.get(seriesNameKey(name)) === -1);
    }
    if (missing.length > 0) throw new Error('history series could not be created');
    return ids;
  }

  /** The batch that ensured `ids` committed: they exist for good. */
  commit(ids: ReadonlyMap<string, number>): void {
    for (const [key, id] of ids) if (!this.known.has(key)) this.remember(key, id);
  }

  private remember(key: string, id: number): void {
    if (this.known.size >= MAX_CACHED) this.known.clear();
    this.known.set(key, id);
  }
}
