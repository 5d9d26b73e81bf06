/**
 * Accuracy of the time-to-sell estimate against the simulator's true sale process.
 *
 * Method: the simulator's 30 days before the listing time T (sales and books, hourly steps, no
 * outages) go through the real normalise path into a Book, for ITEMS items spread evenly over
 * the popularity ranks. At T, on every liquidity market where an item has an estimate, one unit
 * is listed at two prices: one cent under that market's best ask (front of the queue) and at
 * its best ask (behind the units listed there). The estimate is the service's record at T
 * restricted to that market. The actual sale time is when the simulator's own future sales on
 * that market (salesBetween, the process that generated the history, counted as the backfill
 * reports it: only while the market lists the item) have consumed the units ahead plus ours. Baseline in the same run: an oracle that knows the simulator's true sales
 * rate and uses the same queue model, i.e. the error floor a perfect rate estimate would have.
 */
import { Book } from '../src/book/book.ts';
import type { loadCatalogs } from '../src/catalog/index.ts';
import { DAY, HOUR } from '../src/domain/clock.ts';
import type { MarketId } from '../src/domain/markets.ts';
import { normalise } from '../src/ingest/normalise.ts';
import { liquidityFromBook } from '../src/liquidity/from-book.ts';
import { LIQUIDITY_MARKETS } from '../src/liquidity/markets.ts';
import { queueAhead } from '../src/liquidity/queue.ts';
import { queueTimes } from '../src/liquidity/queue-time.ts';
import { simBackfill } from '../src/markets/sim/backfill.ts';
import type { SimItem } from '../src/markets/sim/items.ts';
import { itemMarketKey } from '../src/markets/sim/price-model.ts';
import { isListed } from '../src/markets/sim/quote.ts';
import { dailySalesRate, salesBetween } from '../src/markets/sim/sales.ts';
import { createSimWorld, type SimWorld } from '../src/markets/sim/world.ts';
import { simFx } from './full-book.ts';

type Catalogs = ReturnType<typeof loadCatalogs>;

const SEED = 42;
const ITEMS = 400;
const HISTORY_DAYS = 30;
const HORIZON_DAYS = 120;
/** Evidence so large the rate counts as known: the plain Erlang quantiles. */
const KNOWN_RATE_EVIDENCE = 1e9;

export interface Trial {
  predictedMedian: number;
  predictedP90: number;
  oracleMedian: number;
  oracleP90: number;
  /** Hours until sold; null when not sold within the horizon (censored). */
  actual: number | null;
}

/** Item names spread evenly over the popularity ranks (most popular first). */
function sampleItems(world: SimWorld): SimItem[] {
  const items = world.games.cs2!.items;
  const step = Math.max(1, Math.floor(items.length / ITEMS));
  return Array.from({ length: Math.min(ITEMS, items.length) }, (_, i) => items[i * step]!);
}

/** The book the service would hold at `at` after following the simulator for 30 days. */
export function historyBook(catalogs: Catalogs, at: number, names: readonly string[]): Book {
  const book = new Book();
  for (const chunk of simBackfill({
    seed: SEED,
    catalogs: { cs2: catalogs.cs2 },
    fromMs: at - HISTORY_DAYS * DAY,
    toMs: at,
    stepMs: HOUR,
    itemLimit: 0,
    alsoItems: names,
    markets: LIQUIDITY_MARKETS.cs2,
    faults: false,
  })) {
    book.apply(normalise(chunk, { catalogs, fx: simFx(at), now: at }).batch);
  }
  return book;
}

/** Hours from `at` until `units` units have sold on the market, or null within the horizon. */
function hoursUntilSold(
  world: SimWorld,
  market: MarketId,
  item: SimItem,
  at: number,
  units: number,
) {
  const imKey = itemMarketKey(world, market, item);
  let sold = 0;
  for (let from = at; from < at + HORIZON_DAYS * DAY; from += 7 * DAY) {
    for (const sale of salesBetween(world, market, item, imKey, from, from + 7 * DAY)) {
      if (!isListed(market, item, imKey, Math.ceil(sale.soldAt / HOUR) * HOUR)) continue;
      sold += sale.quantity;
      if (sold >= units) return (sale.soldAt - at) / HOUR;
    }
  }
  return null;
}

/** Units the simulator sells per day on average: sales × mean quantity (cheap items sell in bulk 8% of the time, 2–5 units). */
function trueUnitsPerDay(market: MarketId, item: SimItem): number {
  const meanQuantity = item.refCents < 200 ? 0.92 + 0.08 * 3.5 : 1;
  return dailySalesRate(market, item) * meanQuantity;
}

export function accuracyTrials(catalogs: Catalogs, at: number): { trials: Trial[]; book: Book } {
  const world = createSimWorld({ seed: SEED, catalogs: { cs2: catalogs.cs2 }, faults: false });
  const sampled = sampleItems(world);
  const book = historyBook(
    catalogs,
    at,
    sampled.map((item) => item.name),
  );
  const trials: Trial[] = [];
  for (const simItem of sampled) {
    for (const market of LIQUIDITY_MARKETS.cs2) {
      const ask = book.marketSides('cs2', simItem.item.id, market)?.ask ?? null;
      const best = ask?.levels[0]?.price;
      if (best === undefined) continue;
      for (const askPrice of [best - 1, best]) {
        if (askPrice < 1) continue;
        const record = liquidityFromBook(book, 'cs2', simItem.item, [market], askPrice, at);
        if (record.medianTimeToSellHours === null || record.p90TimeToSellHours === null) continue;
        const ahead = queueAhead(ask, askPrice);
        const oracle = queueTimes(ahead, trueUnitsPerDay(market, simItem), KNOWN_RATE_EVIDENCE)!;
        trials.push({
          predictedMedian: record.medianTimeToSellHours,
          predictedP90: record.p90TimeToSellHours,
          oracleMedian: oracle.medianHours,
          oracleP90: oracle.p90Hours,
          actual: hoursUntilSold(world, market, simItem, at, ahead + 1),
        });
      }
    }
  }
  return { trials, book };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

export interface AccuracySummary {
  trials: number;
  censored: number;
  medianAbsLogError: number;
  oracleMedianAbsLogError: number;
  shareUnderP90: number;
  oracleShareUnderP90: number;
}

/** Log errors over the sold trials (a sale at 0 h counts as 1 minute); p90 share over all trials. */
export function summarize(trials: readonly Trial[]): AccuracySummary {
  const sold = trials.filter((trial) => trial.actual !== null);
  const logError = (predicted: number, actual: number) =>
    Math.abs(Math.log(Math.max(predicted, 1 / 60) / Math.max(actual, 1 / 60)));
  const under = (p90: (trial: Trial) => number) =>
    trials.filter((trial) => trial.actual !== null && trial.actual <= p90(trial)).length /
    trials.length;
  return {
    trials: trials.length,
    censored: trials.length - sold.length,
    medianAbsLogError: median(sold.map((trial) => logError(trial.predictedMedian, trial.actual!))),
    oracleMedianAbsLogError: median(
      sold.map((trial) => logError(trial.oracleMedian, trial.actual!)),
    ),
    shareUnderP90: under((trial) => trial.predictedP90),
    oracleShareUnderP90: under((trial) => trial.oracleP90),
  };
}
