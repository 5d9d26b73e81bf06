/**
 * `npm run bench -- stream`: 1,000 open price streams on one process (clients on their own
 * thread), an ingest of 20 quote sides every 10 ms for 8 s. Reports the ingest → client latency
 * (p50 / p99, target p99 ≤ 250 ms) and the HTTP thread's cost per delivered event (its busy
 * time from event-loop utilisation: book apply, the hub's derivation and writes), against the
 * same batches with no stream open.
 */
import { performance } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import { createMemoryRateLimiter } from '../src/access/memory-rate-limiter.ts';
import { Book } from '../src/book/book.ts';
import { systemClock } from '../src/domain/clock.ts';
import type { CatalogItem } from '../src/domain/item.ts';
import type { MarketId } from '../src/domain/markets.ts';
import type { IngestBatch } from '../src/domain/quote.ts';
import { buildApp, streamHubOf } from '../src/http/app.ts';
import {
  ArrayFetchHistory,
  SettableItemsAll,
  testAuthenticator,
  testCatalog,
  testPlanGate,
  type TestKey,
} from '../src/http/test-support.ts';
import { side } from '../src/pricing/snapshot-fixtures.ts';

const STREAMS = 1_000;
const ITEMS = 100;
const SIDES_PER_BATCH = 20;
const BATCH_EVERY_MS = 10;
const MEASURE_MS = 8_000;
const MARKETS: readonly MarketId[] = ['csfloat', 'skinport', 'buff163', 'dmarket'];

const items: CatalogItem[] = Array.from({ length: ITEMS }, (_, index) => ({
  id: `bench-${index}`,
  game: 'cs2',
  marketHashName: `Bench Item ${index}`,
  slug: `bench-${index}`,
  category: 'skin',
}));

function batch(step: number): IngestBatch {
  const now = Date.now();
  const sides = Array.from({ length: SIDES_PER_BATCH }, (_, index) => {
    const n = step * SIDES_PER_BATCH + index;
    return side('ask', {
      market: MARKETS[n % MARKETS.length]!,
      itemId: items[(n * 7) % ITEMS]!.id,
      prices: [1_000 + ((n * 37) % 900)],
      fetchedAt: now,
      ingestedAt: now,
    });
  });
  return { sides, sales: [], listings: [] };
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;

/**
 * Applies a batch every 10 ms for `ms`. The HTTP thread's busy ms over the window (event-loop
 * utilisation: book apply, the hub's derivation, the socket writes it queues for the end of
 * the turn, the server's own work), and the ms spent inside `book.apply` alone.
 */
async function ingest(
  book: Book,
  ms: number,
  from: number,
): Promise<{ busyMs: number; applyMs: number; batches: number }> {
  let applyMs = 0;
  let step = from;
  const before = performance.eventLoopUtilization();
  const end = performance.now() + ms;
  while (performance.now() < end) {
    const started = performance.now();
    book.apply(batch(step));
    applyMs += performance.now() - started;
    step += 1;
    await new Promise((resolve) => setTimeout(resolve, BATCH_EVERY_MS));
  }
  const busyMs = performance.eventLoopUtilization(before).active;
  return { busyMs, applyMs, batches: step - from };
}

export async function benchStream(): Promise<void> {
  const book = new Book();
  const keys = new Map<string, TestKey>();
  for (let index = 0; index < STREAMS / 50; index += 1) {
    keys.set(`sk_bench_${index}`, { accountId: `bench-${index}`, plan: 'enterprise' });
  }
  const app = await buildApp({
    clock: systemClock,
    catalogs: { cs2: testCatalog('cs2', items), rust: testCatalog('rust', []) },
    book,
    authenticator: testAuthenticator(keys),
    planGate: testPlanGate,
    limiter: createMemoryRateLimiter(),
    healthLimiter: createMemoryRateLimiter(),
    fetchHistory: new ArrayFetchHistory(),
    marketCadence: () => 60_000,
    itemsAll: new SettableItemsAll(),
    docs: false,
  });
  const base = await app.listen({ port: 0, host: '127.0.0.1' });
  const idle = await ingest(book, 2_000, 0);
  const idleMs = idle.busyMs / idle.batches;

  const streams = Array.from({ length: STREAMS }, (_, index) => ({
    key: `sk_bench_${index % (STREAMS / 50)}`,
    path: `/v1/stream?events=quote&items=${encodeURIComponent(items[index % ITEMS]!.marketHashName)}`,
  }));
  const worker = new Worker(new URL('./stream-clients.mjs', import.meta.url), {
    workerData: { base, streams },
  });
  const messages: { type: string; latencies?: number[]; events?: number }[] = [];
  let wake: () => void = () => {};
  worker.on('message', (message) => {
    messages.push(message);
    wake();
  });
  const next = async (type: string) => {
    while (!messages.some((message) => message.type === type)) {
      await new Promise<void>((resolve) => (wake = resolve));
    }
    return messages.find((message) => message.type === type)!;
  };
  await next('open');
  await ingest(book, 2_000, 10_000);
  worker.postMessage('reset');
  const measured = await ingest(book, MEASURE_MS, 20_000);
  await new Promise((resolve) => setTimeout(resolve, 500));
  worker.postMessage('stop');
  const done = await next('done');
  const latencies = done.latencies!.sort((a, b) => a - b);
  const delivered = done.events!;
  const perBatch = measured.busyMs / measured.batches;
  const perEventUs =
    ((measured.busyMs - idleMs * measured.batches) * 1000) / Math.max(1, delivered);
  const applyPerBatch = measured.applyMs / measured.batches;
  console.log(
    `${STREAMS} streams over ${ITEMS} items, ${SIDES_PER_BATCH} sides every ${BATCH_EVERY_MS} ms for ${MEASURE_MS / 1000} s: ${delivered} quote events delivered (${Math.round(delivered / (MEASURE_MS / 1000))}/s)`,
  );
  console.log(
    `ingest → client latency: p50 ${percentile(latencies, 50)} ms, p99 ${percentile(latencies, 99)} ms (target p99 ≤ 250 ms)`,
  );
  console.log(
    `HTTP thread busy per batch: ${perBatch.toFixed(3)} ms with the streams vs ${idleMs.toFixed(3)} ms with none (${(perBatch / idleMs).toFixed(1)}×), of which ${applyPerBatch.toFixed(3)} ms in book.apply + derivation; ${perEventUs.toFixed(2)} µs per delivered event above the baseline`,
  );
  console.log(`open streams at the end: ${streamHubOf(app)!.openStreams()}`);
  await worker.terminate();
  await app.close();
}
