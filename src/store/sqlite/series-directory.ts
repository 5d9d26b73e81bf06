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

/** Ids by game, then item, then market name ('' for the aggregate). */
type IdTable = Map<string, Map<string, number>>;

function lookup(table: IdTable, itemId: string, market: string): number | undefined {
  return table.get(itemId)?.get(market);
}

function store(table: IdTable, itemId: string, market: string, id: number): void {
  let markets = table.get(itemId);
  if (!markets) table.set(itemId, (markets = new Map()));
  markets.set(market, id);
}

export class SeriesDirectory {
  private known = new Map<Game, IdTable>();
  private pending = new Map<Game, IdTable>();
  private knownCount = 0;

  constructor(private readonly statements: RollupStatements) {}

  /** The id of an existing series, or null. */
  find(game: Game, itemId: string, market: MarketId | null): number | null {
    const name = market ?? AGGREGATE_MARKET;
    const cached =
      lookup(this.tableOf(this.known, game), itemId, name) ??
      lookup(this.tableOf(this.pending, game), itemId, name);
    if (cached !== undefined) return cached;
    const row = this.statements.findSeries.get(game, itemId, name);
    if (row) this.remember(game, itemId, name, row.id);
    return row?.id ?? null;
  }

  /** The id of a series, created if missing. Call inside a write transaction. */
  ensure(game: Game, itemId: string, market: MarketId | null): number {
    const found = this.find(game, itemId, market);
    if (found !== null) return found;
    const name = market ?? AGGREGATE_MARKET;
    const id = Number(this.statements.insertSeries.run(game, itemId, name).lastInsertRowid);
    store(this.tableOf(this.pending, game), itemId, name, id);
    return id;
  }

  /** The transaction that created pending ids committed: keep them. */
  commit(): void {
    for (const [game, table] of this.pending) {
      for (const [itemId, markets] of table) {
        for (const [name, id] of markets) this.remember(game, itemId, name, id);
      }
    }
    this.pending.clear();
  }

  /** The transaction rolled back: its ids do not exist. */
  discard(): void {
    this.pending.clear();
  }

  private tableOf(tables: Map<Game, IdTable>, game: Game): IdTable {
    let table = tables.get(game);
    if (!table) tables.set(game, (table = new Map()));
    return table;
  }

  private remember(game: Game, itemId: string, market: string, id: number): void {
    if (this.knownCount >= MAX_CACHED) {
      this.known = new Map();
      this.knownCount = 0;
    }
    store(this.tableOf(this.known, game), itemId, market, id);
    this.knownCount += 1;
  }
}
