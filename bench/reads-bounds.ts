/**
 * The heaviest reads at their largest allowed parameters, one request at a time over HTTP
 * through the full route (auth, plan, quota, validation, handler, serialisation), on the book a
 * running simulator holds for the whole catalog (every market's fetch, no outages) and, for
 * history, an item with 10,000 ten-minute buckets stored. Reported per request, over the runs
 * after a warm-up: process CPU time (median and 90th percentile; CPU time so other processes on
 * the machine do not inflate it) and the longest stretch the event loop was held while the
 * request ran (median over the runs, so a rare GC pause or preemption does not dominate).
 * Also the book index's upkeep per applied 2,000-side batch of one market.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMemoryRateLimiter } from '../src/access/memory-rate-limiter.ts';
import type { Book } from '../src/book/book.ts';
import { loadCatalogs } from '../src/catalog/index.ts';
import { iso, manualClock, MINUTE } from '../src/domain/clock.ts';
import { buildApp } from '../src/http/app.ts';
import {
  ArrayFetchHistory,
  auth,
  DEFAULT_KEYS,
  KEYS,
  SettableItemsAll,
  testAuthenticator,
  testPlanGate,
} from '../src/http/test-support.ts';
import { normalise } from '../src/ingest/normalise.ts';
import { simBackfill } from '../src/markets/sim/backfill.ts';
import { nearestRank } from '../src/pricing/stats.ts';
import { createSqlitePriceStore } from '../src/store/sqlite/sqlite-price-store.ts';
import { fullBook, simFx } from './full-book.ts';

const NOW = Date.parse('2026-11-20T00:00:00Z');
const RUNS = 60;
const HISTORY_BUCKETS = 10_000;

type Catalogs = ReturnType<typeof loadCatalogs>;

/** Longest stretch the loop was held, sampled by a timer that should fire every 1 ms. */
function loopWatch() {
  let last = performance.now();
  let longest = 0;
  const timer = setInterval(() => {
    const at = performance.now();
    longest = Math.max(longest, at - last);
    last = at;
  }, 1);
  return {
    reset() {
      last = performance.now();
      longest = 0;
    },
    longest: () => Math.max(longest, performance.now() - last),
    stop: () => clearInterval(timer),
  };
}

async function measure(origin: string, label: string, url: string): Promise<void> {
  const watch = loopWatch();
  const request = async () => {
    const response = await fetch(`${origin}${url}`, { headers: auth(KEYS.enterprise) });
    const body = await response.arrayBuffer();
    if (response.status !== 200) throw new Error(`${url}: ${response.status}`);
    return body.byteLength;
  };
  let bytes = 0;
  for (let i = 0; i < 20; i += 1) bytes = await request();
  const cpu: number[] = [];
  const held: number[] = [];
  for (let i = 0; i < RUNS; i += 1) {
    await new Promise((resolve) => setTimeout(resolve, 2));
    watch.reset();
    const started = process.cpuUsage();
    await request();
    const used = process.cpuUsage(started);
    cpu.push((used.user + used.system) / 1000);
    held.push(watch.longest());
  }
  watch.stop();
  const ms = (values: number[], percent: number) =>
    nearestRank(
      values.sort((a, b) => a - b),
      percent,
    )!.toFixed(2);
  console.log(
    `${label}: ${Math.round(bytes / 1000)} kB; CPU per request p50 ${ms(cpu, 50)} ms, p90 ${ms(cpu, 90)} ms; ` +
      `longest loop hold p50 ${ms(held, 50)} ms`,
  );
}

/** One item's history at a 10-minute step, the whole step written as one batch. */
async function historyStore(dir: string, catalogs: Catalogs) {
  const store = createSqlitePriceStore({ path: join(dir, 'history.db') });
  await store.init();
  const fromMs = NOW - HISTORY_BUCKETS * 10 * MINUTE;
  const fx = simFx(NOW);
  for (const chunk of simBackfill({
    seed: 42,
    catalogs: { cs2: catalogs.cs2 },
    fromMs,
    toMs: NOW - 10 * MINUTE,
    stepMs: 10 * MINUTE,
    itemLimit: 1,
  })) {
    await store.writeBatch(normalise(chunk, { catalogs, fx, now: NOW }).batch);
  }
  await store.flushRollups();
  const itemId = store.db
    .prepare<[], string>(`SELECT item_id FROM history_series WHERE game = 'cs2' LIMIT 1`)
    .pluck()
    .get()!;
  return { store, fromMs, item: catalogs.cs2.byId(itemId)! };
}

/** A market fetch as ingest posts it: 2,000 asks of one market, each newer than the last. */
function indexUpkeep(book: Book, catalogs: Catalogs): void {
  const sides = catalogs.cs2.items
    .map((item) => book.marketSides('cs2', item.id, 'skinport')?.ask)
    .filter((side) => side !== null && side !== undefined)
    .slice(0, 2_000);
  const times: number[] = [];
  for (let i = 0; i < 20; i += 1) {
    const batch = sides.map((side) => ({ ...side, fetchedAt: side.fetchedAt + i + 1 }));
    const started = process.cpuUsage();
    book.apply({ sides: batch, sales: [], listings: [] });
    const used = process.cpuUsage(started);
    times.push((used.user + used.system) / 1000);
  }
  times.sort((a, b) => a - b);
  console.log(
    `book apply of a ${sides.length}-side batch of one market, the book index following: ` +
      `CPU p50 ${nearestRank(times, 50)!.toFixed(2)} ms, p90 ${nearestRank(times, 90)!.toFixed(2)} ms`,
  );
}

export async function benchReadBounds(): Promise<void> {
  const catalogs = loadCatalogs();
  const book = await fullBook(catalogs, NOW);
  const dir = mkdtempSync(join(tmpdir(), 'pricing-bounds-'));
  const history = await historyStore(dir, catalogs);
  const app = await buildApp({
    clock: manualClock(NOW),
    catalogs,
    book,
    authenticator: testAuthenticator(DEFAULT_KEYS),
    planGate: testPlanGate,
    limiter: createMemoryRateLimiter(),
    healthLimiter: createMemoryRateLimiter(),
    healthPerMinute: 1_000_000,
    fetchHistory: new ArrayFetchHistory(),
    marketCadence: () => 60_000,
    itemsAll: new SettableItemsAll(),
    history: history.store,
    docs: false,
  });
  const quoted = catalogs.cs2.items.filter((item) => book.sides('cs2', item.id).length > 0);
  const hundred = quoted
    .slice(0, 100)
    .map((item) => encodeURIComponent(item.marketHashName))
    .join(',');
  const deepest = quoted.reduce((best, item) =>
    book.sides('cs2', item.id).length > book.sides('cs2', best.id).length ? item : best,
  );
  const name = encodeURIComponent(deepest.marketHashName);
  const range = `from=${iso(history.fromMs)}&to=${iso(NOW - 1)}&interval=MINUTE_15`;
  console.log(
    `full catalog: ${quoted.length} quoted cs2 items; history: ${HISTORY_BUCKETS} ten-minute buckets of one item`,
  );
  const reads: [string, string][] = [
    [
      'arbitrage, candidateLimit=2000, limit=100, no spread or notional floor',
      '/v1/arbitrage/opportunities?candidateLimit=2000&limit=100&minSpreadBps=0&minNotionalCents=0',
    ],
    ['items, perPage=100, first page', '/v1/items?perPage=100'],
    ['items, perPage=100, page 200', '/v1/items?perPage=100&page=200'],
    ['items, search "a", perPage=100', '/v1/items?search=a&perPage=100'],
    [
      'items, search "s" in one market, perPage=100',
      '/v1/items?search=s&markets=skindeck&perPage=100',
    ],
    [
      'aggregations min-prices, 100 items',
      `/v1/aggregations/min-prices?marketHashNames=${hundred}`,
    ],
    [
      'aggregations max-orders, 100 items',
      `/v1/aggregations/max-orders?marketHashNames=${hundred}`,
    ],
    [
      'depth=50, the item quoted on most markets',
      `/v1/nbbo/depth?market_hash_name=${name}&depth=50`,
    ],
    ['market health', '/v1/markets/health'],
  ];
  const item = encodeURIComponent(history.item.marketHashName);
  reads.push(
    [`history, ${HISTORY_BUCKETS} points`, `/v1/pricing/${item}/history?${range}`],
    ['market analytics, windowHours=168', `/v1/market-analytics/${item}?windowHours=168`],
  );
  const origin = await app.listen({ host: '127.0.0.1', port: 0 });
  for (const [label, url] of reads) await measure(origin, label, url);
  indexUpkeep(book, catalogs);
  await app.close();
  await history.store.close();
  rmSync(dir, { recursive: true, force: true });
}
