/**
 * Which items the per-item endpoints of live connectors spend their request budget on (Steam's
 * ~20 requests a minute, CSFloat's listings, Buff's sell orders): first what API users asked
 * for recently (the HTTP side counts item lookups with a one-hour half-life and hands the top
 * names over), then the items with the most listings across the bulk feeds ingest has seen.
 */
import type { Catalog } from '../catalog/catalog.ts';
import { HOUR, MINUTE } from '../domain/clock.ts';
import { GAMES, type Game } from '../domain/games.ts';
import type { IngestBatch } from '../domain/quote.ts';

const HALF_LIFE_MS = HOUR;
const MAX_TRACKED = 50_000;
export const DEMAND_TOP = 200;
const LIQUID_TOP = 500;

interface Score {
  value: number;
  at: number;
}

/** HTTP side: decayed counts of item lookups per game. */
export class DemandCounter {
  private readonly scores: Record<Game, Map<string, Score>> = { cs2: new Map(), rust: new Map() };

  note(game: Game, itemId: string, now: number): void {
    const held = this.scores[game];
    const score = held.get(itemId);
    held.set(itemId, { value: (score ? decayed(score, now) : 0) + 1, at: now });
    if (held.size > MAX_TRACKED) this.prune(game, now);
  }

  /** Item ids by decayed score, highest first. */
  top(game: Game, now: number, count = DEMAND_TOP): string[] {
    return [...this.scores[game]]
      .map(([id, score]) => [id, decayed(score, now)] as const)
      .sort((a, b) => b[1] - a[1])
      .slice(0, count)
      .map(([id]) => id);
  }

  private prune(game: Game, now: number): void {
    const keep = new Set(this.top(game, now, MAX_TRACKED / 2));
    for (const id of this.scores[game].keys()) if (!keep.has(id)) this.scores[game].delete(id);
  }
}

function decayed(score: Score, now: number): number {
  return score.value * 0.5 ** (Math.max(0, now - score.at) / HALF_LIFE_MS);
}

/** Ingest side: the names most wanted, then the most listed. */
export class ItemPriorities {
  private readonly demand: Record<Game, readonly string[]> = { cs2: [], rust: [] };
  private readonly listings: Record<Game, Map<string, number>> = {
    cs2: new Map(),
    rust: new Map(),
  };
  private readonly cached: Partial<Record<Game, { at: number; names: readonly string[] }>> = {};

  constructor(
    private readonly catalogs: Partial<Record<Game, Catalog>>,
    private readonly now: () => number,
  ) {}

  setDemand(game: Game, names: readonly string[]): void {
    this.demand[game] = names;
    delete this.cached[game];
  }

  noteBatch(batch: IngestBatch): void {
    for (const side of batch.sides) {
      if (side.side !== 'ask') continue;
      const count = side.listingCount ?? side.totalQuantity;
      const held = this.listings[side.game];
      if (count > (held.get(side.itemId) ?? 0)) held.set(side.itemId, count);
    }
  }

  list(game: Game): readonly string[] {
    const now = this.now();
    const cached = this.cached[game];
    if (cached && now - cached.at < MINUTE) return cached.names;
    const catalog = this.catalogs[game];
    const liquid = [...this.listings[game]]
      .sort((a, b) => b[1] - a[1])
      .slice(0, LIQUID_TOP)
      .map(([id]) => catalog?.byId(id)?.marketHashName)
      .filter((name): name is string => name !== undefined);
    const names = [...new Set([...this.demand[game], ...liquid])];
    this.cached[game] = { at: now, names };
    return names;
  }
}

/** Notes reads answered without a catalog lookup (the HTTP side's cached bodies) as demand. */
export function noteDemand(demand: DemandCounter) {
  return (game: Game, itemId: string, now: number): void => demand.note(game, itemId, now);
}

/** The catalogs with `resolve` noting every successful lookup as demand. */
export function demandNotingCatalogs<T extends Partial<Record<Game, Catalog>>>(
  catalogs: T,
  demand: DemandCounter,
  now: () => number,
): T {
  const wrapped: Partial<Record<Game, Catalog>> = { ...catalogs };
  for (const game of GAMES) {
    const catalog = catalogs[game];
    if (!catalog) continue;
    wrapped[game] = {
      ...catalog,
      resolve(nameOrId: string) {
        const item = catalog.resolve(nameOrId);
        if (item) demand.note(game, item.id, now());
        return item;
      },
    };
  }
  return wrapped as T;
}
