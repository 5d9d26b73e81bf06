import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Registry } from 'prom-client';
import { Book } from '../book/book.ts';
import { manualClock } from '../domain/clock.ts';
import { FetchLog } from '../ingest/fetch-log.ts';
import { createIngestRunner } from '../ingest/runner.ts';
import {
  askObservation,
  capturingLogger,
  manualTimers,
  marketInfo,
  recordingStore,
  scriptedAdapter,
  TEST_FX,
  testCatalogs,
  type AdapterStep,
} from '../ingest/test-fixtures.ts';
import { AdapterError } from '../markets/market-adapter.ts';
import { IngestMetrics } from './ingest-metrics.ts';
import { parseSamples, total } from './test-support.ts';

const T0 = Date.parse('2026-11-01T00:00:00Z');
const FETCH_MS = 1_200;

function setup(steps: AdapterStep[]) {
  const clock = manualClock(T0);
  const adapter = scriptedAdapter(marketInfo(), steps);
  const fetchRaw = adapter.fetchRaw.bind(adapter);
  adapter.fetchRaw = async (ctx) => {
    clock.advance(FETCH_MS);
    return fetchRaw(ctx);
  };
  const registry = new Registry();
  const metrics = new IngestMetrics(registry);
  const runner = createIngestRunner({
    adapters: [adapter],
    catalogs: testCatalogs(),
    fx: TEST_FX,
    book: new Book(),
    store: recordingStore(),
    fetchLog: new FetchLog(clock),
    clock,
    logger: capturingLogger(),
    timers: manualTimers(),
    onCycle: (record, tally) => metrics.noteCycle(record, tally),
  });
  return { runner, scrape: async () => parseSamples(await registry.metrics()) };
}

const mixedStep = (): AdapterStep => ({
  observations: [
    askObservation({ fetchedAt: T0 + FETCH_MS }),
    askObservation({ item: 'AWP | Asiimov (Field-Tested)', fetchedAt: T0 + FETCH_MS }),
    askObservation({ item: 'Not An Item', fetchedAt: T0 + FETCH_MS }),
    askObservation({
      item: 'AWP | Asiimov (Field-Tested)',
      levels: [{ price: -5, quantity: 1, orders: 1 }],
      fetchedAt: T0 + FETCH_MS,
    }),
  ],
});

describe('ingest metrics: fetches, failures, latency, observations and rejections', () => {
  test('each cycle is counted per market and game, rejections per reason', async () => {
    const { runner, scrape } = setup([
      mixedStep(),
      mixedStep(),
      { error: new AdapterError('HTTP 429', true, 'rate_limited') },
    ]);
    for (let i = 0; i < 3; i += 1) await runner.runOnce('skinport', 'cs2');
    const samples = await scrape();
    const where = { market: 'skinport', game: 'cs2' };
    assert.equal(total(samples, 'pricing_fetches_total', { ...where, result: 'ok' }), 2);
    assert.equal(total(samples, 'pricing_fetches_total', { ...where, result: 'failed' }), 1);
    assert.equal(
      total(samples, 'pricing_fetch_failures_total', { ...where, kind: 'rate_limited' }),
      1,
    );
    assert.equal(total(samples, 'pricing_ingest_observations_total', where), 8);
    const rejections = (reason: string) =>
      total(samples, 'pricing_ingest_rejections_total', { ...where, reason });
    assert.equal(rejections('unknown_item'), 2);
    assert.equal(rejections('negative_price'), 2);
    assert.equal(total(samples, 'pricing_ingest_rejections_total'), 4);

    assert.equal(total(samples, 'pricing_fetch_duration_seconds_count', where), 3);
    assert.equal(total(samples, 'pricing_fetch_duration_seconds_sum', where), 3 * 1.2);
    const under1s = { ...where, le: '1' };
    assert.equal(total(samples, 'pricing_fetch_duration_seconds_bucket', under1s), 0);
    assert.equal(total(samples, 'pricing_fetch_to_commit_seconds_count', where), 2);
  });
});
