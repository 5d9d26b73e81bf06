/**
 * History read latency on the benchmark store: a 180-day hourly aggregate read and a 7-day
 * 10-minute per-market read of one item, through the store + pure functions and through the
 * full route (auth, plan gate, quota, validation, serialisation) with app.inject.
 */
import { looseRows } from '../src/store/sqlite/test-support.ts';
import { Book } from '../src/book/book.ts';
import type { loadCatalogs } from '../src/catalog/index.ts';
import { DAY, iso, type Clock } from '../src/domain/clock.ts';
import type { HistoryRequest } from '../src/http/history-params.ts';
import { readSeriesHistory } from '../src/http/history-reader.ts';
import { auth, KEYS } from '../src/http/test-support.ts';
import { nearestRank } from '../src/pricing/stats.ts';
import type { SqlitePriceStore } from '../src/store/sqlite/sqlite-price-store.ts';
import { unlimitedApp } from './unlimited-app.ts';

const RUNS = 150;

interface Latency {
  p50: number;
  p95: number;
  p99: number;
}

/** Wall percentiles of RUNS reads after 10 warm-up reads, and the process CPU per read. */
async function measure(
  run: () => Promise<number>,
): Promise<Latency & { points: number; cpuMs: number }> {
  let points = 0;
  for (let i = 0; i < 10; i += 1) points = await run();
  const times: number[] = [];
  const cpu = process.cpuUsage();
  for (let i = 0; i < RUNS; i += 1) {
    const started = performance.now();
    await run();
    times.push(performance.now() - started);
  }
  const { user, system } = process.cpuUsage(cpu);
  times.sort((a, b) => a - b);
  return {
    p50: nearestRank(times, 50)!,
    p95: nearestRank(times, 95)!,
    p99: nearestRank(times, 99)!,
    points,
    cpuMs: (user + system) / 1000 / RUNS,
  };
}

function report(
  label: string,
  latency: Latency & { points: number; cpuMs: number },
  baseline?: Latency,
): void {
  const ms = (value: number) => value.toFixed(2);
  const ratio = baseline
    ? `; p95 ratio vs store + pure ${(latency.p95 / baseline.p95).toFixed(2)}`
    : '';
  console.log(
    `${label}: ${latency.points} points, p50 ${ms(latency.p50)} ms, p95 ${ms(latency.p95)} ms, p99 ${ms(latency.p99)} ms, ` +
      `CPU ${ms(latency.cpuMs)} ms a read${ratio}`,
  );
}

/** The item whose aggregate has the most 10-minute bytes, which its hours derive from (one of the densely backfilled). */
export function densestItem(store: SqlitePriceStore): string {
  return store.db
    .prepare<[], string>(
      `SELECT s.item_id FROM history_series s JOIN (
         SELECT series, length(data) AS size FROM history.pages_10m
         UNION ALL SELECT series, length(ask) FROM ${looseRows(store.db, '10m')}) r
         ON r.series = s.id
       WHERE s.game = 'cs2' AND s.market = '' GROUP BY s.id
       ORDER BY sum(r.size) DESC, s.item_id LIMIT 1`,
    )
    .pluck()
    .get()!;
}

export async function benchHistoryReads(
  store: SqlitePriceStore,
  catalogs: ReturnType<typeof loadCatalogs>,
  clock: Clock,
): Promise<void> {
  const item = catalogs.cs2.byId(densestItem(store))!;
  const end = clock.now();
  const [market] = await store.historyMarkets('cs2', item.id);
  const long: HistoryRequest = {
    fromMs: end - 180 * DAY,
    toMs: end - 1,
    listingType: 'SELL_OFFER',
    salesWindow: null,
    tier: '1h',
  };
  const short: HistoryRequest = { ...long, fromMs: end - 7 * DAY, tier: '10m' };
  const aggregate = { game: 'cs2' as const, itemId: item.id, market: null };
  const own = { ...aggregate, market: market! };
  console.log(
    `reads of "${item.marketHashName}" (per-market series: ${market}), ${RUNS} runs each`,
  );

  const storeLong = await measure(
    async () => (await readSeriesHistory(store, aggregate, long)).length,
  );
  report('180-day hourly aggregate SELL_OFFER, store + pure (target p95 ≤ 25 ms)', storeLong);
  const storeShort = await measure(async () => (await readSeriesHistory(store, own, short)).length);
  report('7-day 10m per-market SELL_OFFER, store + pure', storeShort);
  const sales = { ...long, listingType: 'SALE_HISTORY' as const, salesWindow: '30d' as const };
  report(
    '180-day hourly aggregate SALE_HISTORY with 30d rolling volume, store + pure',
    await measure(async () => (await readSeriesHistory(store, aggregate, sales)).length),
  );

  const app = await unlimitedApp(KEYS.enterprise, {
    clock,
    catalogs,
    book: new Book(),
    history: store,
  });
  const name = encodeURIComponent(item.marketHashName);
  /** Times the request only; the point count comes from one JSON.parse outside the timing. */
  const get = (url: string, field: 'history' | 'series') => {
    let points = -1;
    return async () => {
      const response = await app.inject({ url, headers: auth(KEYS.enterprise) });
      if (response.statusCode !== 200) throw new Error(`${url}: ${response.statusCode}`);
      if (points < 0) {
        const body = response.json();
        points = field === 'history' ? body.history.length : body.series[0].history.length;
      }
      return points;
    };
  };
  const range = (request: HistoryRequest) => `from=${iso(request.fromMs)}&to=${iso(request.toMs)}`;
  report(
    'GET /v1/pricing/:name/history, 180 days hourly (full route)',
    await measure(get(`/v1/pricing/${name}/history?${range(long)}`, 'history')),
    storeLong,
  );
  report(
    'GET /v1/pricing/:name/history/markets, 7 days at 10m, one market (full route)',
    await measure(
      get(`/v1/pricing/${name}/history/markets?${range(short)}&markets=${market}`, 'series'),
    ),
    storeShort,
  );
  await app.close();
}
