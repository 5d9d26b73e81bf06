import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Book } from '../book/book.ts';
import { manualClock, SECOND } from '../domain/clock.ts';
import { FetchLog } from './fetch-log.ts';
import { createIngestRunner } from './runner.ts';
import { jitterMs } from './schedule.ts';
import {
  askObservation,
  capturingLogger,
  manualTimers,
  marketInfo,
  recordingStore,
  scriptedAdapter,
  TEST_FX,
  testCatalogs,
} from './test-fixtures.ts';

const T0 = Date.parse('2026-11-01T00:00:00Z');
const FLUSH_MS = 999_999;

async function settle(): Promise<void> {
  for (let i = 0; i < 10; i += 1) await new Promise((resolve) => setImmediate(resolve));
}

describe('runner: shouldPoll (the ingest role polls only leased markets)', () => {
  test('skips polls while the lease is not held, polls within idleRecheckMs of gaining it', async () => {
    const clock = manualClock(T0);
    const steps = [0, 1].map(() => ({ observations: [askObservation({ fetchedAt: T0 })] }));
    const store = recordingStore();
    const timers = manualTimers();
    let held = false;
    const runner = createIngestRunner({
      adapters: [scriptedAdapter(marketInfo(), steps)],
      catalogs: testCatalogs(),
      fx: TEST_FX,
      book: new Book(),
      store,
      fetchLog: new FetchLog(clock),
      clock,
      logger: capturingLogger(),
      timers,
      fetchFlushMs: FLUSH_MS,
      shouldPoll: (market) => market === 'skinport' && held,
      idleRecheckMs: 2 * SECOND,
    });
    const fire = async () => {
      const poll = timers.pending().find((timer) => timer.ms !== FLUSH_MS)!;
      clock.advance(poll.ms);
      timers.fire(poll.id);
      await settle();
      return poll.ms;
    };
    runner.start();
    assert.equal(await fire(), jitterMs('skinport', 'cs2', marketInfo().cadenceMs));
    assert.equal(store.batches.length, 0, 'not polled without the lease');
    assert.equal(await fire(), 2 * SECOND);
    assert.equal(store.batches.length, 0);
    held = true;
    assert.equal(await fire(), 2 * SECOND, 'polled at the first recheck after the gain');
    assert.equal(store.batches.length, 1);
    const next = timers.pending().find((timer) => timer.ms !== FLUSH_MS)!;
    assert.ok(next.ms >= marketInfo().cadenceMs, 'back on its cadence while held');
    await runner.stop();
  });

  test('markets gained together are polled two at a time, each once its turn comes', async () => {
    const clock = manualClock(T0);
    const timers = manualTimers();
    const started: string[] = [];
    const releases: (() => void)[] = [];
    const adapters = (['skinport', 'csfloat', 'dmarket'] as const).map((id) => {
      const observations = [askObservation({ market: id, fetchedAt: T0 })];
      const scripted = scriptedAdapter(marketInfo({ id }), [{ observations }]);
      return {
        ...scripted,
        async fetchRaw(ctx: Parameters<typeof scripted.fetchRaw>[0]) {
          started.push(id);
          await new Promise<void>((resolve) => releases.push(resolve));
          return scripted.fetchRaw(ctx);
        },
      };
    });
    let held = false;
    const runner = createIngestRunner({
      adapters,
      catalogs: testCatalogs(),
      fx: TEST_FX,
      book: new Book(),
      store: recordingStore(),
      fetchLog: new FetchLog(clock),
      clock,
      logger: capturingLogger(),
      timers,
      fetchFlushMs: FLUSH_MS,
      shouldPoll: () => held,
    });
    const fireAll = async () => {
      for (const timer of timers.pending().filter((pending) => pending.ms !== FLUSH_MS)) {
        timers.fire(timer.id);
      }
      await settle();
    };
    runner.start();
    await fireAll();
    assert.deepEqual(started, [], 'nothing polled without the leases');
    held = true;
    await fireAll();
    assert.equal(started.length, 2, 'two takeover polls at once');
    releases.shift()!();
    await settle();
    assert.equal(started.length, 3, 'the third once a slot is free');
    for (const release of releases.splice(0)) release();
    await settle();
    await runner.stop();
  });

  test('results are written under the lease fence; a lease lost mid-poll writes nothing', async () => {
    const clock = manualClock(T0);
    const steps = [0, 1].map(() => ({ observations: [askObservation({ fetchedAt: T0 })] }));
    const store = recordingStore();
    let token: number | null = 41;
    const runner = createIngestRunner({
      adapters: [scriptedAdapter(marketInfo(), steps)],
      catalogs: testCatalogs(),
      fx: TEST_FX,
      book: new Book(),
      store,
      fetchLog: new FetchLog(clock),
      clock,
      logger: capturingLogger(),
      timers: manualTimers(),
      fence: (market) => (token === null ? null : { scope: market, token }),
    });
    const first = await runner.runOnce('skinport', 'cs2');
    assert.ok('record' in first && first.record.ok);
    assert.deepEqual(store.fences, [{ scope: 'skinport', token: 41 }]);
    token = null;
    const second = await runner.runOnce('skinport', 'cs2');
    assert.equal(store.batches.length, 1, 'nothing written without the lease');
    assert.ok('record' in second && second.error?.kind === 'retryable');
    assert.equal(second.record.failure, 'store');
  });

  test('a failed commit is polled again after 1 s, not a quarter cadence', async () => {
    const clock = manualClock(T0);
    const steps = [0, 1].map(() => ({ observations: [askObservation({ fetchedAt: T0 })] }));
    const store = recordingStore();
    store.failWrites = 1;
    const timers = manualTimers();
    const runner = createIngestRunner({
      adapters: [scriptedAdapter(marketInfo({ cadenceMs: 15 * 60 * SECOND }), steps)],
      catalogs: testCatalogs(),
      fx: TEST_FX,
      book: new Book(),
      store,
      fetchLog: new FetchLog(clock),
      clock,
      logger: capturingLogger(),
      timers,
      fetchFlushMs: FLUSH_MS,
    });
    runner.start();
    const first = timers.pending().find((timer) => timer.ms !== FLUSH_MS)!;
    clock.advance(first.ms);
    timers.fire(first.id);
    await settle();
    assert.equal(store.batches.length, 0, 'the commit failed');
    const retry = timers.pending().find((timer) => timer.ms !== FLUSH_MS)!;
    assert.equal(retry.ms, SECOND);
    clock.advance(retry.ms);
    timers.fire(retry.id);
    await settle();
    assert.equal(store.batches.length, 1);
    await runner.stop();
  });
});
