/**
 * Past observations from the same price model the live adapters use, for seeding history:
 * per step, the book snapshots a fetch at that moment would have produced for each game's
 * `itemLimit` most popular items and for the `alsoItems` named (markets that were down skip
 * the step; slow spells serve lagged data), preceded by every sale of those items since the
 * previous step. Built directly, without a body round trip; listings are not backfilled.
 *
 * Streams in bounded chunks: a chunk is `stepsPerChunk` steps (a time window) × at most
 * `itemsPerChunk` covered items, so memory stays flat whatever the days and items. Windows
 * come in time order, the item slices of a window one after another; within a chunk
 * observations are in time order (per step, sales by `soldAt`, then books at the step time).
 * `cover` picks which covered items a run yields, so the named items can be backfilled first
 * and the popular band later, producing exactly what one combined run would. Chunks depend
 * only on the options, so a run that skips the first chunks yields the rest unchanged.
 */
import type { Game } from '../../domain/games.ts';
import { MARKET_IDS, type MarketId } from '../../domain/markets.ts';
import type { Observation, SaleObservation } from '../../domain/observation.ts';
import { MARKET_INFO } from '../registry.ts';
import { conditionAt } from './faults.ts';
import type { SimGame } from './items.ts';
import { pushRowObservations, type RowContext } from './observe.ts';
import { itemMarketKey, unitsPerUsd } from './price-model.ts';
import { SIM_PROFILES } from './profiles.ts';
import { isListed, quoteAt } from './quote.ts';
import { salesAsReported, salesBetween } from './sales.ts';
import { dataTimeAt, toNativeUnits } from './snapshot.ts';
import { createSimWorld, type SimCatalogs, type SimWorld } from './world.ts';

export interface SimBackfillOptions {
  seed: number | string;
  catalogs: SimCatalogs;
  fromMs: number;
  toMs: number;
  stepMs: number;
  /** Most popular items per game to cover. */
  itemLimit: number;
  /** Items to cover as well, by market hash name, wherever they rank (unknown names are ignored). */
  alsoItems?: readonly string[];
  markets?: readonly MarketId[];
  /** Skip outage windows and apply slow-spell lag, as live fetches see them (default true). */
  faults?: boolean;
  /** Steps per chunk (default 1). */
  stepsPerChunk?: number;
  /** Covered items per game per chunk (default all). */
  itemsPerChunk?: number;
  /**
   * Which covered items to yield: `all` (default), `named` (only `alsoItems`, wherever they
   * rank) or `popular` (the `itemLimit` most popular, minus `alsoItems`).
   */
  cover?: 'all' | 'named' | 'popular';
  /** Chunks to pass over without building them (a run resumed after these were written). */
  skipChunks?: number;
  /** Called before each chunk is yielded: chunks done so far (this one included) of `total`. */
  onProgress?: (done: number, total: number) => void;
  /** See SimWorldOptions.quotesHold. */
  quotesHold?: boolean;
}

/** Chunks of observations from `fromMs` to `toMs` inclusive (see the module comment). */
export function* simBackfill(options: SimBackfillOptions): Generator<Observation[]> {
  if (!(options.stepMs > 0) || options.toMs < options.fromMs) return;
  const world = createSimWorld({
    seed: options.seed,
    catalogs: options.catalogs,
    universe: options.itemLimit,
    faults: options.faults ?? true,
    ...(options.quotesHold === undefined ? {} : { quotesHold: options.quotesHold }),
  });
  const ranks = coveredRanks(world, options.alsoItems ?? [], options.cover ?? 'all');
  const windowMs = Math.max(1, Math.floor(options.stepsPerChunk ?? 1)) * options.stepMs;
  const perChunk = Math.max(1, Math.floor(options.itemsPerChunk ?? Infinity));
  const longest = Math.max(0, ...Object.values(ranks).map((covered) => covered.length));
  const slices = Math.max(1, Math.ceil(longest / perChunk));
  const total = Math.floor((options.toMs - options.fromMs) / windowMs + 1) * slices;
  let done = 0;
  for (let start = options.fromMs; start <= options.toMs; start += windowMs) {
    const end = Math.min(options.toMs, start + windowMs - options.stepMs);
    for (let first = 0; first < Math.max(1, longest); first += perChunk) {
      done += 1;
      if (done <= (options.skipChunks ?? 0)) continue;
      const slice = sliceRanks(ranks, first, perChunk);
      const chunk: Observation[] = [];
      for (let at = start; at <= end; at += options.stepMs)
        stepInto(world, options, slice, at, chunk);
      options.onProgress?.(done, total);
      yield chunk;
    }
  }
}

function sliceRanks(
  ranks: Partial<Record<Game, number[]>>,
  first: number,
  count: number,
): Partial<Record<Game, number[]>> {
  const out: Partial<Record<Game, number[]>> = {};
  for (const [game, covered] of Object.entries(ranks) as [Game, number[]][]) {
    out[game] = covered.slice(first, first + count);
  }
  return out;
}

/** One step's observations for the ranks given: sales since the previous step, then books. */
function stepInto(
  world: SimWorld,
  options: SimBackfillOptions,
  ranks: Partial<Record<Game, number[]>>,
  at: number,
  out: Observation[],
): void {
  const markets = options.markets ?? MARKET_IDS;
  const sales: SaleObservation[] = [];
  const books: Observation[] = [];
  for (const game of Object.keys(world.games) as Game[]) {
    const simGame = world.games[game]!;
    const covered = ranks[game]!;
    if (covered.length === 0) continue;
    for (const market of markets) {
      if (!MARKET_INFO[market].games.includes(game)) continue;
      if (at > options.fromMs)
        collectSales(world, simGame, covered, market, at - options.stepMs, at, sales);
      collectBooks(world, simGame, covered, market, at, books);
    }
  }
  sales.sort((a, b) => a.soldAt - b.soldAt);
  for (const sale of sales) out.push(sale);
  for (const book of books) out.push(book);
}

function itemCount(world: SimWorld, simGame: SimGame): number {
  return Math.min(
    simGame.items.length,
    typeof world.universe === 'number' ? world.universe : Infinity,
  );
}

/**
 * Per game, the popularity ranks to cover: the first `itemCount`, then `alsoItems` further
 * down; `cover` keeps only the named ones or only the others.
 */
function coveredRanks(
  world: SimWorld,
  alsoItems: readonly string[],
  cover: NonNullable<SimBackfillOptions['cover']>,
): Partial<Record<Game, number[]>> {
  const wanted = new Set(alsoItems);
  const ranks: Partial<Record<Game, number[]>> = {};
  for (const [game, simGame] of Object.entries(world.games) as [Game, SimGame][]) {
    const count = itemCount(world, simGame);
    const covered = Array.from({ length: count }, (_, rank) => rank);
    for (let rank = count; rank < simGame.items.length && wanted.size > 0; rank += 1) {
      if (wanted.has(simGame.items[rank]!.name)) covered.push(rank);
    }
    const named = (rank: number) => wanted.has(simGame.items[rank]!.name);
    ranks[game] =
      cover === 'all' ? covered : covered.filter((rank) => (cover === 'named') === named(rank));
  }
  return ranks;
}

function collectBooks(
  world: SimWorld,
  simGame: SimGame,
  ranks: readonly number[],
  market: MarketId,
  at: number,
  out: Observation[],
): void {
  const condition = conditionAt(world, market, at);
  if (condition.kind === 'down') return;
  const info = MARKET_INFO[market];
  const dataTime = dataTimeAt(market, at, condition.lagMs);
  const ctx: RowContext = {
    game: simGame.game,
    market,
    currency: info.currency,
    scale: info.scale,
    fetchedAt: at,
    dataTime,
  };
  const nativePerUsdCent = (unitsPerUsd(world.seed, info.currency, dataTime) * info.scale) / 100;
  for (const rank of ranks) {
    const item = simGame.items[rank]!;
    const imKey = itemMarketKey(world, market, item);
    if (!isListed(market, item, imKey, dataTime)) continue;
    const quote = quoteAt(world, market, item, imKey, dataTime, nativePerUsdCent);
    pushRowObservations(out, ctx, item.name, quote, []);
  }
}

function collectSales(
  world: SimWorld,
  simGame: SimGame,
  ranks: readonly number[],
  market: MarketId,
  fromMs: number,
  toMs: number,
  out: SaleObservation[],
): void {
  const info = MARKET_INFO[market];
  if (!info.capabilities.sales || !SIM_PROFILES[market].singleSales) return;
  for (const rank of ranks) {
    const item = simGame.items[rank]!;
    const imKey = itemMarketKey(world, market, item);
    if (!isListed(market, item, imKey, toMs)) continue;
    for (const sale of salesAsReported(salesBetween(world, market, item, imKey, fromMs, toMs))) {
      out.push({
        game: simGame.game,
        market,
        item: item.name,
        currency: info.currency,
        scale: info.scale,
        kind: 'sale',
        price: toNativeUnits(world, info.currency, info.scale, sale.usdCents, sale.soldAt),
        quantity: sale.quantity,
        soldAt: sale.soldAt,
      });
    }
  }
}
