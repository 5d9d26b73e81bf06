/**
 * What deriving an item's aggregate series at read time would cost the 180-day hourly read:
 * the aggregate as stored (readSeriesHistory) against the same points merged from each
 * market's series of the item (one scan per market, rows merged per bucket, then the points).
 * The store: one item backfilled densely (180 days at 10 minutes, with sales) and 20 filler
 * items at a daily step, packed; `npm run bench -- derived-aggregate`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadCatalogs } from '../src/catalog/index.ts';
import { DAY, MINUTE } from '../src/domain/clock.ts';
import type { HistoryRequest } from '../src/http/history-params.ts';
import { readSeriesHistory } from '../src/http/history-reader.ts';
import { DEFAULT_FX } from '../src/ingest/fx.ts';
import { bucketBounds } from '../src/pricing/rollup-buckets.ts';
import { historyPoint, type HistoryPoint } from '../src/pricing/rollup-points.ts';
import { emptyRow, mergeRow, type RollupRow } from '../src/pricing/rollups.ts';
import { nearestRank } from '../src/pricing/stats.ts';
import { compactHistory } from '../src/store/history-compaction.ts';
import type { SqlitePriceStore } from '../src/store/sqlite/sqlite-price-store.ts';
import { createSqlitePriceStore } from '../src/store/sqlite/sqlite-price-store.ts';
import { buildReadStore, KEEP_ALL } from './history-data.ts';
import { densestItem } from './history-reads.ts';

const END = Date.parse('2026-11-20T00:00:00Z');
const RUNS = 60;

async function latency(run: () => Promise<number>) {
  let points = 0;
  for (let i = 0; i < 5; i += 1) points = await run();
  const times: number[] = [];
  const cpu = process.cpuUsage();
  for (let i = 0; i < RUNS; i += 1) {
    const started = performance.now();
    await run();
    times.push(performance.now() - started);
  }
  const used = process.cpuUsage(cpu);
  times.sort((a, b) => a - b);
  const ms = (value: number) => value.toFixed(2);
  const cpuMs = (used.user + used.system) / 1000 / RUNS;
  return `${points} points, p50 ${ms(nearestRank(times, 50)!)} ms, p95 ${ms(nearestRank(times, 95)!)} ms, CPU ${ms(cpuMs)} ms a read`;
}

/** The aggregate's SELL_OFFER points merged from every market's series of the item. */
async function mergedFromMarkets(store: SqlitePriceStore, itemId: string, request: HistoryRequest) {
  const [fromMs, toMs] = bucketBounds(request.fromMs, request.toMs, request.tier);
  const rows = new Map<number, RollupRow>();
  for (const market of await store.historyMarkets('cs2', itemId)) {
    const series = { game: 'cs2' as const, itemId, market };
    const visit = (row: RollupRow) => {
      const merged = rows.get(row.start);
      if (merged) mergeRow(merged, row);
      else rows.set(row.start, mergeRow(emptyRow(row.start), row));
    };
    await store.scanRollups(series, request.tier, fromMs, toMs, ['ask', 'bid'], visit, ['ask']);
  }
  const points: HistoryPoint[] = [];
  for (const start of [...rows.keys()].sort((a, b) => a - b)) {
    const point = historyPoint(rows.get(start)!, 'SELL_OFFER', 'aggregate', null);
    if (point) points.push(point);
  }
  return points;
}

export async function benchDerivedAggregate(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'pricing-derived-aggregate-'));
  try {
    const catalogs = loadCatalogs();
    const store = createSqlitePriceStore({ path: join(dir, 'reads.db') });
    await store.init();
    const plan = { endMs: END, days: 180, fillerItems: 20, fillerStepMs: DAY };
    const fx = { ...DEFAULT_FX, asOf: END };
    const built = await buildReadStore(
      { catalogs, fx, store },
      { ...plan, denseItems: 1, denseStepMs: 10 * MINUTE },
    );
    await compactHistory(store, END + 72 * DAY, KEEP_ALL);
    const itemId = densestItem(store);
    const markets = await store.historyMarkets('cs2', itemId);
    const request: HistoryRequest = {
      fromMs: END - 180 * DAY,
      toMs: END - 1,
      listingType: 'SELL_OFFER',
      salesWindow: null,
      tier: '1h',
    };
    const aggregate = { game: 'cs2' as const, itemId, market: null };
    console.log(
      `store: ${built.observations} observations; item ${itemId}, ${markets.length} markets; ${RUNS} reads each, in process`,
    );
    const stored = async () => (await readSeriesHistory(store, aggregate, request)).length;
    console.log(`180-day hourly aggregate SELL_OFFER as stored: ${await latency(stored)}`);
    const merged = async () => (await mergedFromMarkets(store, itemId, request)).length;
    console.log(
      `the same, merged from ${markets.length} markets at read: ${await latency(merged)}`,
    );
    await store.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
