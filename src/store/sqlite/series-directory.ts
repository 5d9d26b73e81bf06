/**
 * Series ids (history_series): an item on one market, or market '' for its aggregate. Ids are
 * never reused or changed, so a looked-up id stays valid for every connection; ids created
 * inside a write transaction only join the cache once that transaction has committed.
 */
import type { Game } from '../../domain/games.ts';
import type { MarketId } from '../../domain/markets.ts';
import type { RollupStatements } from './rollup-statements.ts';

/** Cached ids before the cache starts over (about 100 bytes each). */
const MAX_CACHED = 500_000;

export const AGGREGATE_MARKET = '';

function keyOf(game: Game, itemId: string, market: string): string {
  return `${game}\u0000${itemId}\u0000${market}`;
}

export class SeriesDirectory {
  private readonly known = new Map<string, number>();
  private readonly pending = new Map<string, number>();

  constructor(private readonly statements: RollupStatements) {}

  /** The id of an existing series, or null. */
  find(game: Game, itemId: string, market: MarketId | null): number | null {
    const name = market ?? AGGREGATE_MARKET;
    const key = keyOf(game, itemId, name);
    const cached = this.known.get(key) ?? this.pending.get(key);
    if (cached !== undefined) return cached;
    const row = this.statements.findSeries.get(game, itemId, name);
    if (row) this.remember(key, row.id);
    return row?.id ?? null;
  }

  /** The id of a series, created if missing. Call inside a write transaction. */
  ensure(game: Game, itemId: string, market: MarketId | null): number {
    const found = this.find(game, itemId, market);
    if (found !== null) return found;
    const name = market ?? AGGREGATE_MARKET;
    const id = Number(this.statements.insertSeries.run(game, itemId, name).lastInsertRowid);
    this.pending.set(keyOf(game, itemId, name), id);
    return id;
  }

  /** The transaction that created pending ids committed: keep them. */
  commit(): void {
    for (const [key, id] of this.pending) this.remember(key, id);
    this.pending.clear();
  }

  /** The transaction rolled back: its ids do not exist. */
  discard(): void {
    this.pending.clear();
  }

  private remember(key: string, id: number): void {
    if (this.known.size >= MAX_CACHED) this.known.clear();
    this.known.set(key, id);
  }
}
