/**
 * Observed sales velocity of one item on one market, from what the book holds: single sales
 * (most markets) or, when a market publishes only statistics of its sales, the volume of a
 * trailing window (Skinport's 24h / 7d / 30d / 90d, Steam's 24h).
 *
 * - Rolling windows 24 h, 7 d, 30 d: the shortest one holding at least RATE_SALES sales is
 *   used, else 30 d. Units (sale quantities) per day = units / observed span; the units are
 *   kept as the evidence behind the rate (queue-time.ts widens the times when they are few).
 * - The observed span is the window, unless the first sale in it lies late in the window (the
 *   market may not have been followed for the whole window): then it is the time since that
 *   first sale plus one mean gap before it, (now − first) · (n + 1) / n, at least one hour.
 * - Statistics: the shortest window with volume ≥ RATE_SALES, else the longest published
 *   with any volume; units per day = volume / window length.
 * - The data age is the time since the newest evidence: the latest sale, or when the statistic
 *   was fetched. No sale in 30 days and no statistic with volume → no evidence (null).
 */
import { DAY, HOUR } from '../domain/clock.ts';
import type { MarketId } from '../domain/markets.ts';
import type { SalesWindow } from '../domain/observation.ts';
import type { SaleRecord, SalesStatsRecord } from '../domain/quote.ts';

/** Fewer sales than this in the window used is "thin". */
export const ENOUGH_SALES = 10;
/** The rate window widens until it holds this many sales (or reaches 30 days). */
export const RATE_SALES = 30;

export const RATE_WINDOWS_MS = [DAY, 7 * DAY, 30 * DAY] as const;
const LONGEST_WINDOW_MS = 30 * DAY;

const STATS_WINDOW_MS: Readonly<Record<SalesWindow, number>> = {
  '24h': DAY,
  '7d': 7 * DAY,
  '30d': 30 * DAY,
  '90d': 90 * DAY,
};

export interface SalesEvidence {
  unitsPerDay: number;
  /** Units sold in the window used (the rate's evidence). */
  units: number;
  /** Sales (or, from statistics, units) counted in the window used. */
  sales: number;
  windowMs: number;
  /** When the newest evidence was made: the latest sale, or the statistic's fetch. */
  latestAt: number;
}

interface WindowCount {
  sales: number;
  units: number;
  /** The oldest sale counted. */
  firstAt: number;
  windowMs: number;
}

interface MarketTally {
  windows: WindowCount[];
  latestAt: number | null;
}

/** Index of the first sale after `fromMs` in a list sorted by soldAt (the book keeps it so). */
function firstAfter(sales: readonly SaleRecord[], fromMs: number): number {
  let low = 0;
  let high = sales.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (sales[mid]!.soldAt <= fromMs) low = mid + 1;
    else high = mid;
  }
  return low;
}

/** One backward pass over the last 30 days, counting each slot's sales per window. */
function tally(
  slots: number,
  slotOf: (sale: SaleRecord) => number,
  sales: readonly SaleRecord[],
  now: number,
): MarketTally[] {
  const tallies = Array.from({ length: slots }, () => ({
    windows: RATE_WINDOWS_MS.map((windowMs) => ({ sales: 0, units: 0, firstAt: now, windowMs })),
    latestAt: null as number | null,
  }));
  for (let i = firstAfter(sales, now) - 1; i >= 0; i -= 1) {
    const sale = sales[i]!;
    const age = now - sale.soldAt;
    if (age >= LONGEST_WINDOW_MS) break;
    const own = tallies[slotOf(sale)];
    if (!own) continue;
    own.latestAt ??= sale.soldAt;
    for (const window of own.windows) {
      if (age >= window.windowMs) continue;
      window.sales += 1;
      window.units += sale.quantity;
      window.firstAt = sale.soldAt;
    }
  }
  return tallies;
}

function observedSpan(window: WindowCount, now: number): number {
  const sinceFirst = ((now - window.firstAt) * (window.sales + 1)) / window.sales;
  return Math.min(window.windowMs, Math.max(HOUR, sinceFirst));
}

function chooseWindow(counted: MarketTally, now: number): SalesEvidence | null {
  const { windows, latestAt } = counted;
  const chosen =
    windows.find((window) => window.sales >= RATE_SALES) ?? windows[windows.length - 1]!;
  if (chosen.sales === 0 || latestAt === null) return null;
  return {
    unitsPerDay: (chosen.units * DAY) / observedSpan(chosen, now),
    units: chosen.units,
    sales: chosen.sales,
    windowMs: chosen.windowMs,
    latestAt,
  };
}

/**
 * Evidence from one market's single sales, sorted by soldAt as the book holds them, or null
 * when none sold in 30 days.
 */
export function evidenceFromSales(sales: readonly SaleRecord[], now: number): SalesEvidence | null {
  return chooseWindow(tally(1, () => 0, sales, now)[0]!, now);
}

/** Evidence from one market's published window statistics, or null when none sold. */
export function evidenceFromStats(stats: readonly SalesStatsRecord[]): SalesEvidence | null {
  const sold = stats
    .filter((record) => record.volume > 0)
    .sort((a, b) => STATS_WINDOW_MS[a.window] - STATS_WINDOW_MS[b.window]);
  const chosen = sold.find((record) => record.volume >= RATE_SALES) ?? sold[sold.length - 1];
  if (!chosen) return null;
  const windowMs = STATS_WINDOW_MS[chosen.window];
  return {
    unitsPerDay: (chosen.volume * DAY) / windowMs,
    units: chosen.volume,
    sales: chosen.volume,
    windowMs,
    latestAt: chosen.fetchedAt,
  };
}

/**
 * Evidence per market (single sales win over statistics; statistics fill in for markets that
 * publish no sales). `sales` must be sorted by soldAt, as the book holds them.
 */
export function evidenceByMarket(
  markets: readonly MarketId[],
  sales: readonly SaleRecord[],
  stats: readonly SalesStatsRecord[],
  now: number,
): Map<MarketId, SalesEvidence | null> {
  const tallies = tally(markets.length, (sale) => markets.indexOf(sale.market), sales, now);
  return new Map(
    markets.map((market, slot) => [
      market,
      chooseWindow(tallies[slot]!, now) ??
        (stats.length === 0
          ? null
          : evidenceFromStats(stats.filter((record) => record.market === market))),
    ]),
  );
}
