/**
 * Past observations from the same price model the live adapters use, for seeding history:
 * per step, the book snapshots a fetch at that moment would have produced for each game's
 * `itemLimit` most popular items and for the `alsoItems` named (markets that were down skip
 * the step; slow spells serve lagged data), preceded by every sale of those items since the
 * previous step. Chunks come in time order (sales by `soldAt`, then books at the step time).
 * Built directly, without a body round trip; listings are not backfilled.
 */
import type { Game } from '../../domain/games.ts';
import { MARKET_IDS, type MarketId } from '../../domain/markets.ts';
import type { Observation, SaleObservation } from '../../domain/observation.ts';
import { FORMAT_BY_MARKET } from '../formats/index.ts';
import { MARKET_INFO } from '../registry.ts';
import { conditionAt } from './faults.ts';
import type { SimGame } from './items.ts';
import { pushRowObservations, type RowContext } from './observe.ts';
import { itemMarketKey, unitsPerUsd } from './price-model.ts';
import { isListed, quoteAt } from './quote.ts';
import { salesAsReported, salesBetween } from './sales.ts';
import { crawlsDepth, dataTimeAt, isDeep, toNativeUnits } from './snapshot.ts';
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
}

/** Chunks of observations, one per step from `fromMs` to `toMs` inclusive, in time order. */
export function* simBackfill(options: SimBackfillOptions): Generator<Observation[]> {
  if (!(options.stepMs > 0) || options.toMs < options.fromMs) return;
  const world = createSimWorld({
    seed: options.seed,
    catalogs: options.catalogs,
    universe: options.itemLimit,
    faults: options.faults ?? true,
  });
  const markets = options.markets ?? MARKET_IDS;
  const ranks = coveredRanks(world, options.alsoItems ?? []);
  for (let at = options.fromMs; at <= options.toMs; at += options.stepMs) {
    const sales: SaleObservation[] = [];
    const books: Observation[] = [];
    for (const game of Object.keys(world.games) as Game[]) {
      const simGame = world.games[game]!;
      for (const market of markets) {
        if (!MARKET_INFO[market].games.includes(game)) continue;
        const covered = ranks[game]!;
        if (at > options.fromMs)
          collectSales(world, simGame, covered, market, at - options.stepMs, at, sales);
        collectBooks(world, simGame, covered, market, at, books);
      }
    }
    sales.sort((a, b) => a.soldAt - b.soldAt);
    const chunk: Observation[] = sales;
    for (const book of books) chunk.push(book);
    yield chunk;
  }
}

function itemCount(world: SimWorld, simGame: SimGame): number {
  return Math.min(
    simGame.items.length,
    typeof world.universe === 'number' ? world.universe : Infinity,
  );
}

/** Per game, the popularity ranks to cover: the first `itemCount`, then `alsoItems` further down. */
function coveredRanks(
  world: SimWorld,
  alsoItems: readonly string[],
): Partial<Record<Game, number[]>> {
  const wanted = new Set(alsoItems);
  const ranks: Partial<Record<Game, number[]>> = {};
  for (const [game, simGame] of Object.entries(world.games) as [Game, SimGame][]) {
    const count = itemCount(world, simGame);
    const covered = Array.from({ length: count }, (_, rank) => rank);
    for (let rank = count; rank < simGame.items.length && wanted.size > 0; rank += 1) {
      if (wanted.has(simGame.items[rank]!.name)) covered.push(rank);
    }
    ranks[game] = covered;
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
  const isWaxpeer = FORMAT_BY_MARKET[market] === 'waxpeer-prices';
  const crawls = crawlsDepth(market);
  const count = itemCount(world, simGame);
  for (const rank of ranks) {
    const item = simGame.items[rank]!;
    const imKey = itemMarketKey(world, market, item);
    if (!isListed(market, item, imKey, dataTime)) continue;
    const withBids = !isWaxpeer || (crawls && isDeep(world, market, rank, count, dataTime));
    const quote = quoteAt(world, market, item, imKey, dataTime, nativePerUsdCent, withBids);
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
  if (!info.capabilities.sales) return;
  for (const rank of ranks) {
    const item = simGame.items[rank]!;
    const imKey = itemMarketKey(world, market, item);
    if (!isListed(market, item, imKey, toMs)) continue;
    for (const sale of salesAsReported(
      market,
      salesBetween(world, market, item, imKey, fromMs, toMs),
    )) {
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
