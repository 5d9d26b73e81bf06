/**
 * Reads history through the HistoryStore port and turns it into response points with the pure
 * rollup functions: one range read per series or per slice of one (plus, for SALE_HISTORY, the
 * few sale-count ranges its rolling volumes need), and the market-analytics windows.
 */
import type { Game } from '../domain/games.ts';
import type { MarketId } from '../domain/markets.ts';
import { bucketBounds, TIER_MS, type Tier, type TierSpan } from '../pricing/rollup-buckets.ts';
import { historyPoint, type HistoryPoint, type ListingType } from '../pricing/rollup-points.ts';
import {
  SaleCounter,
  SALES_WINDOW_MS,
  volumeSpans,
  type SaleCount,
} from '../pricing/rollup-volume.ts';
import { emptyRow, mergeRow, type RollupRow, type Scope } from '../pricing/rollups.ts';
import {
  ALL_SECTIONS,
  type HistoryStore,
  type RollupSection,
  type SeriesKey,
} from '../store/history-store.ts';
import type { HistoryRequest } from './history-params.ts';

/** The section whose median a listing type's points show (the only sketch a read needs). */
const MEDIAN_SECTION: Readonly<Record<ListingType, RollupSection>> = {
  SELL_OFFER: 'ask',
  BUY_ORDER: 'bid',
  SALE_HISTORY: 'sales',
};

/** A book read (asks and bids: stats, best ask and best bid) needs no sales. */
const BOOK_SECTIONS: readonly RollupSection[] = ['ask', 'bid'];

async function saleCounter(
  store: HistoryStore,
  series: SeriesKey,
  [fromMs, toMs]: [number, number],
  request: HistoryRequest,
): Promise<SaleCounter | null> {
  if (request.salesWindow === null) return null;
  const sold = await store.readSaleCounts(series, request.tier, fromMs, toMs);
  const first = sold[0];
  const last = sold[sold.length - 1];
  if (!first || !last) return null;
  const windowMs = SALES_WINDOW_MS[request.salesWindow];
  const counts: Partial<Record<Tier, SaleCount[]>> = {};
  for (const span of volumeSpans(first.start, last.start, request.tier, windowMs)) {
    const found = await store.readSaleCounts(series, span.tier, span.fromMs, span.toMs);
    (counts[span.tier] ??= []).push(...found);
  }
  return new SaleCounter(counts);
}

/** The store's streaming read where it has one, else its array read. */
async function scanRollups(
  store: HistoryStore,
  series: SeriesKey,
  tier: Tier,
  [fromMs, toMs]: [number, number],
  sections: readonly RollupSection[],
  visit: (row: RollupRow) => void,
  sketches: readonly RollupSection[],
): Promise<void> {
  if (store.scanRollups) {
    return store.scanRollups(series, tier, fromMs, toMs, sections, visit, sketches);
  }
  for (const row of await store.readRollups(series, tier, fromMs, toMs, sections)) visit(row);
}

/** Buckets read between two turns of the event loop. */
export const BUCKETS_PER_SLICE = 250;

/** The request cut into consecutive requests of at most `size` buckets each, oldest first. */
export function historySlices(request: HistoryRequest, size = BUCKETS_PER_SLICE) {
  const [from, to] = bucketBounds(request.fromMs, request.toMs, request.tier);
  const width = TIER_MS[request.tier] * size;
  const slices: HistoryRequest[] = [];
  for (let start = from; start < to; start += width) {
    slices.push({ ...request, fromMs: start, toMs: Math.min(start + width, to) - 1 });
  }
  return slices;
}

/** The points of one series for a parsed request, oldest first; empty buckets absent. */
export async function readSeriesHistory(
  store: HistoryStore,
  series: SeriesKey,
  request: HistoryRequest,
): Promise<HistoryPoint[]> {
  const bounds = bucketBounds(request.fromMs, request.toMs, request.tier);
  const scope: Scope = series.market === null ? 'aggregate' : 'market';
  const sales = request.listingType === 'SALE_HISTORY';
  const counter = sales ? await saleCounter(store, series, bounds, request) : null;
  const windowMs = request.salesWindow === null ? 0 : SALES_WINDOW_MS[request.salesWindow];
  const points: HistoryPoint[] = [];
  const sections = sales ? ALL_SECTIONS : BOOK_SECTIONS;
  const visit = (row: RollupRow) => {
    const volume =
      counter && row.sales ? counter.rollingVolume(row.start, request.tier, windowMs) : null;
    const point = historyPoint(row, request.listingType, scope, volume);
    if (point) points.push(point);
  };
  const median = [MEDIAN_SECTION[request.listingType]];
  await scanRollups(store, series, request.tier, bounds, sections, visit, median);
  return points;
}

/** Each market's buckets over `spans`, merged into one row per market that observed anything. */
export async function readWindows(
  store: HistoryStore,
  game: Game,
  itemId: string,
  markets: readonly MarketId[],
  spans: readonly TierSpan[],
): Promise<Map<MarketId, RollupRow>> {
  const windows = new Map<MarketId, RollupRow>();
  for (const market of markets) {
    const merged = emptyRow(spans[0]?.fromMs ?? 0);
    let seen = false;
    for (const span of spans) {
      const key = { game, itemId, market };
      const rows = await store.readRollups(key, span.tier, span.fromMs, span.toMs, BOOK_SECTIONS);
      for (const row of rows) mergeRow(merged, row);
      seen ||= rows.length > 0;
    }
    if (seen) windows.set(market, merged);
  }
  return windows;
}
