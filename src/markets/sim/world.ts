/**
 * The simulated world shared by live adapters and the backfill: seed, per-game item tables,
 * per-market keys, and the options that bound how much each market quotes.
 *
 * Listings and per-item depth come, as from the live connectors, from a few per-item requests
 * per poll (CSFloat asks for 3 priority items, Market.CSGO for 10, within their request
 * budgets): by default the 10 most popular items, the named deep items, and a rotating 20 more.
 */
import type { Catalog } from '../../catalog/catalog.ts';
import type { Game } from '../../domain/games.ts';
import { MARKET_IDS, type MarketId } from '../../domain/markets.ts';
import { buildSimGame, type SimGame } from './items.ts';
import { hashString, mix, seedKey } from './random.ts';

export type SimCatalogs = Readonly<Partial<Record<Game, Pick<Catalog, 'items'>>>>;

export interface SimWorldOptions {
  seed: number | string;
  catalogs: SimCatalogs;
  /** Items each market quotes per game (most popular first); a number or per market. */
  universe?: number | Partial<Record<MarketId, number>>;
  /** Rotating items per fetch with listings / depth besides ALWAYS_DEEP_ITEMS (default 20). */
  depthItemsPerFetch?: number;
  /** Outages, transient errors and slow windows (default on). */
  faults?: boolean;
  /** No fault before this moment (ms): a fresh start serves every market at once. */
  faultsFrom?: number;
  /** Items (and their phase variants) with listings / per-item depth on every fetch, by name. */
  deepItems?: readonly string[];
  /**
   * Quotes hold between change events (default, quote-changes.ts); false moves every quote at
   * every moment, the storage benchmarks' worst case.
   */
  quotesHold?: boolean;
}

export interface SimWorld {
  seed: number;
  games: Partial<Record<Game, SimGame>>;
  marketKeys: Readonly<Record<MarketId, number>>;
  universe: SimWorldOptions['universe'];
  depthItemsPerFetch: number;
  faults: boolean;
  faultsFrom: number;
  quotesHold: boolean;
  /** Per game, the popularity ranks of `deepItems`. */
  deepRanks: Partial<Record<Game, ReadonlySet<number>>>;
}

/** The most popular items, which carry listings / per-item depth on every fetch. */
export const ALWAYS_DEEP_ITEMS = 10;

export function createSimWorld(options: SimWorldOptions): SimWorld {
  const seed = seedKey(options.seed);
  const games: Partial<Record<Game, SimGame>> = {};
  for (const game of Object.keys(options.catalogs) as Game[]) {
    const catalog = options.catalogs[game];
    if (catalog) games[game] = buildSimGame(seed, game, catalog.items);
  }
  const marketKeys = Object.fromEntries(
    MARKET_IDS.map((id) => [id, mix(seed, hashString(id))]),
  ) as Record<MarketId, number>;
  return {
    seed,
    games,
    marketKeys,
    universe: options.universe,
    depthItemsPerFetch: options.depthItemsPerFetch ?? 20,
    faults: options.faults ?? true,
    faultsFrom: options.faultsFrom ?? -Infinity,
    quotesHold: options.quotesHold ?? true,
    deepRanks: deepRanksOf(games, options.deepItems ?? []),
  };
}

function deepRanksOf(
  games: Partial<Record<Game, SimGame>>,
  names: readonly string[],
): Partial<Record<Game, ReadonlySet<number>>> {
  const wanted = new Set(names);
  const out: Partial<Record<Game, ReadonlySet<number>>> = {};
  for (const [game, simGame] of Object.entries(games) as [Game, SimGame][]) {
    const ids = new Set(simGame.items.filter((i) => wanted.has(i.name)).map((i) => i.item.id));
    const ranks = new Set<number>();
    simGame.items.forEach((item, rank) => {
      const variantOf = item.item.variantOf;
      if (ids.has(item.item.id) || (variantOf !== undefined && ids.has(variantOf))) ranks.add(rank);
    });
    out[game] = ranks;
  }
  return out;
}

/** How many of a game's items (by popularity rank) a market may quote. */
export function universeSize(world: SimWorld, market: MarketId, itemCount: number): number {
  const limit = typeof world.universe === 'number' ? world.universe : world.universe?.[market];
  return limit === undefined ? itemCount : Math.max(0, Math.min(itemCount, limit));
}
