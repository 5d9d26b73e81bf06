import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Book, type BookChange } from '../book/book.ts';
import { manualClock, MINUTE, type ManualClock } from '../domain/clock.ts';
import { AdapterError, SimulatedFailure, type MarketInfo } from '../markets/market-adapter.ts';
import type { CycleOutcome } from './cycle.ts';
import { FetchLog } from './fetch-log.ts';
import { createIngestRunner, type CycleResult } from './runner.ts';
import { backoffMs, jitterMs } from './schedule.ts';
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
} from './test-fixtures.ts';

const T0 = Date.parse('2026-11-01T00:00:00Z');
const FLUSH_MS = 999_999;
const FETCH_MS = 300;
const WRITE_MS = 50;

function setup(steps: AdapterStep[], info: MarketInfo = marketInfo()) {
  const clock = manualClock(T0);
  const adapter = scriptedAdapter(info, steps);
  const fetchRaw = adapter.fetchRaw.bind(adapter);
  adapter.fetchRaw = async (ctx) => {
    clock.advance(FETCH_MS);
    return fetchRaw(ctx);
  };
  const store = recordingStore();
  const book = new Book();
  const changes: BookChange[] = [];
  book.onChange((change) => changes.push(change));
  const writeBatch = store.writeBatch.bind(store);
  const sidesSeenAtWrite: number[] = [];
  store.writeBatch = async (batch) => {
    sidesSeenAtWrite.push(book.sides('cs2', 'ak47-redline-ft').length);
    clock.advance(WRITE_MS);
    return writeBatch(batch);
  };
  const timers = manualTimers();
  const logger = capturingLogger();
  const fetchLog = new FetchLog(clock);
  const runner = createIngestRunner({
    adapters: [adapter],
    catalogs: testCatalogs(),
    fx: TEST_FX,
    book,
    store,
    fetchLog,
    clock,
    logger,
    timers,
    fetchFlushMs: FLUSH_MS,
  });
  return {
    clock,
    adapter,
    store,
    book,
    changes,
    timers,
    logger,
    fetchLog,
    runner,
    sidesSeenAtWrite,
  };
}

function outcome(result: CycleResult): CycleOutcome {
  assert.ok(!('skipped' in result), 'cycle was skipped');
  return result;
}

const goodStep = (): AdapterStep => ({
  observations: [
    askObservation({ fetchedAt: T0 + FETCH_MS }),
    askObservation({ item: 'AWP | Asiimov (Field-Tested)', fetchedAt: T0 + FETCH_MS }),
    askObservation({ item: 'Not An Item', fetchedAt: T0 + FETCH_MS }),
  ],
});

/** Lets the fire-and-forget tick promise chain run (the doubles resolve immediately). */
async function settle(): Promise<void> {
  for (let i = 0; i < 10; i += 1) await new Promise((resolve) => setImmediate(resolve));
}

function pollTimer(timers: ReturnType<typeof manualTimers>) {
  const polls = timers.pending().filter((timer) => timer.ms !== FLUSH_MS);
  assert.equal(polls.length, 1, `expected one poll timer, got ${JSON.stringify(polls)}`);
  return polls[0]!;
}

async function firePoll(timers: ReturnType<typeof manualTimers>, clock: ManualClock) {
  const timer = pollTimer(timers);
  clock.advance(timer.ms);
  timers.fire(timer.id);
  await settle();
  return timer.ms;
}

describe('runOnce: one cycle', () => {
  test('fetch → normalise → one store batch → book, with a full fetch record', async () => {
    const { runner, store, book, changes, fetchLog, sidesSeenAtWrite } = setup([goodStep()]);
    const result = outcome(await runner.runOnce('skinport', 'cs2'));
    const expectedRecord = {
      market: 'skinport',
      game: 'cs2',
      startedAt: T0,
      fetchedAt: T0 + FETCH_MS,
      ingestedAt: T0 + FETCH_MS + WRITE_MS,
      ok: true,
      errorKind: null,
      observationCount: 3,
      rejectedCount: 1,
      failure: null,
      detail: null,
      unmappedCount: 1,
    };
    assert.deepEqual(result.record, expectedRecord);
    assert.equal(store.batches.length, 1, 'one store write per cycle');
    assert.deepEqual(store.batches[0]!.sides.map((side) => side.itemId).sort(), [
      'ak47-redline-ft',
      'awp-asiimov-ft',
    ]);
    assert.deepEqual(sidesSeenAtWrite, [0], 'book untouched until the store committed');
    assert.equal(book.sides('cs2', 'ak47-redline-ft')[0]?.ask?.levels[0]?.price, 1550);
    assert.equal(changes.length, 1);
    assert.deepEqual(fetchLog.records(0), [expectedRecord]);
    assert.deepEqual(runner.rejections.countsFor('skinport'), { unknown_item: 1 });
    assert.equal(runner.health()[0]?.lastSuccessAt, T0 + FETCH_MS + WRITE_MS);

    assert.deepEqual(store.fetchWrites, [], 'fetch records are batched');
    await runner.flushFetchRecords();
    assert.deepEqual(store.fetchWrites, [[expectedRecord]]);
  });

  test('a store failure is retryable and leaves the book unchanged', async () => {
    const { runner, store, book } = setup([goodStep()]);
    store.failWrites = 1;
    const result = outcome(await runner.runOnce('skinport', 'cs2'));
    assert.equal(result.record.ok, false);
    assert.equal(result.record.errorKind, 'retryable');
    assert.equal(result.record.ingestedAt, null);
    assert.equal(result.record.fetchedAt, T0 + FETCH_MS);
    assert.deepEqual(book.sides('cs2', 'ak47-redline-ft'), []);
    assert.equal(runner.health()[0]?.consecutiveErrors, 1);
  });

  test('observations in a unit other than the declared one are rejected as wrong_unit', async () => {
    const info = marketInfo({ id: 'waxpeer', scale: 1000 });
    const steps: AdapterStep[] = [
      {
        observations: [
          askObservation({ market: 'waxpeer', scale: 100 }),
          askObservation({ market: 'csfloat' }),
          askObservation({
            market: 'waxpeer',
            scale: 1000,
            levels: [{ price: 15_505, quantity: 1, orders: 1 }],
          }),
        ],
      },
    ];
    const { runner, store } = setup(steps, info);
    const result = outcome(await runner.runOnce('waxpeer', 'cs2'));
    assert.deepEqual(
      result.rejections.map((rejection) => rejection.reason),
      ['malformed', 'wrong_unit'],
    );
    assert.equal(store.batches[0]!.sides[0]!.levels[0]!.price, 1551);
  });

  test('an empty result writes nothing but still records a successful fetch', async () => {
    const { runner, store } = setup([{ observations: [] }]);
    const result = outcome(await runner.runOnce('skinport', 'cs2'));
    assert.equal(result.record.ok, true);
    assert.equal(result.record.ingestedAt, T0 + FETCH_MS);
    assert.deepEqual(store.batches, []);
  });

  test('unknown (market, game) pairs are refused', async () => {
    const { runner } = setup([]);
    assert.throws(() => runner.runOnce('skinport', 'rust'), /no ingest adapter for skinport\/rust/);
    assert.throws(() => runner.runOnce('dmarket', 'cs2'), /no ingest adapter/);
  });
});

describe('permanent errors', () => {
  test('a permanent AdapterError disables the market until restart', async () => {
    const { runner, adapter, logger, timers, clock } = setup([
      { error: new AdapterError('HTTP 401 bad key', false) },
      goodStep(),
    ]);
    runner.start();
    await firePoll(timers, clock);
    const health = runner.health()[0]!;
    assert.equal(health.disabled, true);
    assert.equal(health.lastError, 'HTTP 401 bad key');
    assert.equal(timers.pending().filter((timer) => timer.ms !== FLUSH_MS).length, 0);
    assert.deepEqual(await runner.runOnce('skinport', 'cs2'), { skipped: 'disabled' });
    assert.equal(adapter.fetches.length, 1);
    assert.ok(logger.lines.some((line) => line.level === 'error' && /disabled/.test(line.msg)));
    await runner.stop();
  });

  test('a parse that throws is permanent; a socket error from fetch is retryable', async () => {
    const parse = setup([{ parseThrows: new TypeError('cannot read x of undefined') }]);
    const parsed = outcome(await parse.runner.runOnce('skinport', 'cs2'));
    assert.equal(parsed.record.errorKind, 'permanent');
    assert.equal(parse.runner.health()[0]?.disabled, true);

    const socket = setup([{ error: new Error('ECONNRESET') }]);
    const reset = outcome(await socket.runner.runOnce('skinport', 'cs2'));
    assert.equal(reset.record.errorKind, 'retryable');
    assert.equal(reset.record.fetchedAt, T0 + FETCH_MS);
    assert.equal(socket.runner.health()[0]?.disabled, false);
  });
});

describe('failure logs', () => {
  test('a failure the simulator staged is info and says simulated; a real one is a warning', async () => {
    const staged = 'skinport: HTTP 503 Service Unavailable (simulated)';
    const { runner, logger } = setup([
      { error: new SimulatedFailure(staged, true, 'http_5xx') },
      { error: new AdapterError('HTTP 503', true, 'http_5xx') },
    ]);
    const simulated = outcome(await runner.runOnce('skinport', 'cs2'));
    assert.equal(simulated.error?.simulated, true);
    assert.equal(simulated.record.errorKind, 'retryable');
    assert.equal(simulated.record.failure, 'http_5xx');
    const real = outcome(await runner.runOnce('skinport', 'cs2'));
    assert.equal(real.error?.simulated, false);
    const failures = logger.lines.filter((line) => /backing off/.test(line.msg));
    assert.deepEqual(
      failures.map((line) => [line.level, line.msg]),
      [
        ['info', 'simulated market failure; backing off'],
        ['warn', 'market fetch failed; backing off'],
      ],
    );
    assert.equal((failures[0]!.obj as { simulated?: boolean }).simulated, true);
    await runner.stop();
  });
});

describe('scheduling', () => {
  test('cadence with jitter, backoff on retryable errors, then recovery', async () => {
    const cadence = MINUTE;
    const jitter = jitterMs('skinport', 'cs2', cadence);
    const { runner, timers, clock, store } = setup([
      goodStep(),
      { error: new AdapterError('HTTP 503', true) },
      { error: new AdapterError('HTTP 503', true) },
      { error: new AdapterError('HTTP 429', true) },
      goodStep(),
    ]);
    runner.start();
    const delays = [];
    for (let cycle = 0; cycle < 5; cycle += 1) delays.push(await firePoll(timers, clock));
    assert.deepEqual(delays, [
      jitter,
      cadence + jitter,
      backoffMs(1, cadence),
      backoffMs(2, cadence),
      backoffMs(3, cadence),
    ]);
    assert.equal(pollTimer(timers).ms, cadence + jitter, 'back on cadence after recovery');
    const health = runner.health()[0]!;
    assert.equal(health.consecutiveErrors, 0);
    assert.equal(health.disabled, false);
    assert.ok(health.lastErrorAt !== null && health.lastSuccessAt! > health.lastErrorAt);
    assert.equal(store.batches.length, 2);

    await runner.stop();
    assert.deepEqual(timers.pending(), []);
    const written = store.fetchWrites.flat();
    assert.deepEqual(
      written.map((row) => row.errorKind),
      [null, 'retryable', 'retryable', 'retryable', null],
    );
  });

  test('the backoff never exceeds four cadences', async () => {
    const steps = Array.from({ length: 8 }, () => ({ error: new AdapterError('down', true) }));
    const { runner, timers, clock } = setup(steps);
    runner.start();
    for (let cycle = 0; cycle < 8; cycle += 1) await firePoll(timers, clock);
    assert.equal(pollTimer(timers).ms, 4 * MINUTE);
    assert.equal(runner.health()[0]?.consecutiveErrors, 8);
    await runner.stop();
  });

  test('stop waits for the in-flight cycle, then flushes fetch records', async () => {
    const { runner, adapter, timers, store } = setup([goodStep()]);
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const fetchRaw = adapter.fetchRaw;
    adapter.fetchRaw = async (ctx) => {
      await gate;
      return fetchRaw(ctx);
    };
    runner.start();
    const timer = pollTimer(timers);
    timers.fire(timer.id);
    let stopped = false;
    const stopping = runner.stop().then(() => (stopped = true));
    await settle();
    assert.equal(stopped, false, 'still waiting for the fetch');
    release();
    await stopping;
    assert.equal(store.batches.length, 1);
    assert.equal(store.fetchWrites.flat().length, 1);
    assert.deepEqual(timers.pending(), [], 'no new poll scheduled after stop');
  });

  test('polls only games the adapter serves and that have a catalog', () => {
    const { rust: _rust, ...onlyCs2 } = testCatalogs();
    const runner = createIngestRunner({
      adapters: [scriptedAdapter(marketInfo({ games: ['cs2', 'rust'] }), [])],
      catalogs: onlyCs2,
      fx: TEST_FX,
      book: new Book(),
      store: recordingStore(),
      fetchLog: new FetchLog(manualClock(T0)),
      clock: manualClock(T0),
      logger: capturingLogger(),
      timers: manualTimers(),
    });
    assert.deepEqual(
      runner.health().map((entry) => `${entry.market}/${entry.game}`),
      ['skinport/cs2'],
    );
  });
});
