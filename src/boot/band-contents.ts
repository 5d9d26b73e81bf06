/**
 * Test support for the backfill's resume: what a band left in a store, read through the store
 * ports only (so SQLite and PostgreSQL compare alike): the sales up to the band's end and the
 * 10-minute and hourly rollups of every series a reference store holds, the hourly ones of the
 * hours before the end's hour. Live polling beside the band writes later times only (a fetch
 * reports the sales of its last cadence window, at most 48 minutes back with a slow spell's
 * lag, while the band ends an hour before the first poll), so a store that also polled
 * compares equal to one that only backfilled. `ingestedAt` is a wall-clock stamp and left out.
 */
import { DAY, HOUR, MINUTE } from '../domain/clock.ts';
import { GAMES } from '../domain/games.ts';
import type { HistoryStore, SeriesKey } from '../store/history-store.ts';
import type { PriceStore } from '../store/price-store.ts';

type Stores = { prices: PriceStore; history: HistoryStore };

/** Every series of the items the store holds a side or a sale of (aggregate included). */
export async function storedSeries({ prices, history }: Stores): Promise<SeriesKey[]> {
  const series: SeriesKey[] = [];
  for (const game of GAMES) {
    const items = new Set((await prices.loadSides(game)).map((side) => side.itemId));
    for (const sale of await prices.loadSales(game, 0)) items.add(sale.itemId);
    for (const itemId of [...items].sort()) {
      series.push({ game, itemId, market: null });
      for (const market of await history.historyMarkets(game, itemId)) {
        series.push({ game, itemId, market });
      }
    }
  }
  return series;
}

const withoutStamp = <T extends { ingestedAt: number }>({ ingestedAt: _, ...rest }: T) => rest;

/**
 * The band's sales and rollups in `stores`, over the series given (see the module comment),
 * one JSON line per sale (sorted: sales of one time come in no set order) and per series and
 * tier.
 */
export async function bandContents(
  { prices, history }: Stores,
  band: { toMs: number; days: number },
  series: readonly SeriesKey[],
): Promise<{ sales: string[]; rollups: string[] }> {
  const fromMs = band.toMs - band.days * DAY - HOUR;
  const sales: string[] = [];
  for (const game of GAMES) {
    for (const sale of await prices.loadSales(game, fromMs)) {
      if (sale.soldAt <= band.toMs) sales.push(JSON.stringify(withoutStamp(sale)));
    }
  }
  const endHour = Math.floor(band.toMs / HOUR) * HOUR;
  const rollups: string[] = [];
  for (const key of series) {
    const tenMinutes = await history.readRollups(key, '10m', fromMs, band.toMs + MINUTE);
    const hours = await history.readRollups(key, '1h', fromMs, endHour);
    rollups.push(JSON.stringify([key, tenMinutes, hours]));
  }
  return { sales: sales.sort(), rollups };
}

/** Lines of `expected` missing from `actual` and lines of `actual` it does not expect. */
export function lineDifferences(actual: readonly string[], expected: readonly string[]) {
  const count = (lines: readonly string[]) => {
    const counts = new Map<string, number>();
    for (const line of lines) counts.set(line, (counts.get(line) ?? 0) + 1);
    return counts;
  };
  const have = count(actual);
  const want = count(expected);
  const short = (a: Map<string, number>, b: Map<string, number>) =>
    [...a].flatMap(([line, n]) => Array<string>(Math.max(0, n - (b.get(line) ?? 0))).fill(line));
  return { missing: short(want, have), extra: short(have, want) };
}
