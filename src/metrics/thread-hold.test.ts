import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { Registry } from 'prom-client';
import { parseSamples, total } from './test-support.ts';
import { runQueueReader, TurnSplitter, watchThreadHolds } from './thread-hold.ts';

describe('TurnSplitter', () => {
  test('a late turn is held where the run queue did not grow, waited where it did', () => {
    const splitter = new TurnSplitter(2);
    splitter.add({ atMs: 0, waitedMs: 100 });
    splitter.add({ atMs: 2, waitedMs: 100 }); // on time
    splitter.add({ atMs: 27, waitedMs: 100 }); // 23 ms late, none of it waiting: held
    splitter.add({ atMs: 59, waitedMs: 128 }); // 30 ms late, 28 of it waiting for a core
    splitter.add({ atMs: 61, waitedMs: 128 });
    assert.deepEqual(splitter.take(), {
      longestHold: { heldMs: 23, waitedMs: 0 },
      longestStall: { heldMs: 2, waitedMs: 28 },
    });
  });

  test('take starts over, and waiting is never counted beyond the lateness', () => {
    const splitter = new TurnSplitter(2);
    splitter.add({ atMs: 0, waitedMs: 0 });
    splitter.add({ atMs: 20, waitedMs: 1 });
    assert.deepEqual(splitter.take().longestStall, { heldMs: 17, waitedMs: 1 });
    // The next interval is measured from the last sample, not from the reset.
    splitter.add({ atMs: 23, waitedMs: 9 });
    assert.deepEqual(splitter.take(), {
      longestHold: { heldMs: 0, waitedMs: 0 },
      longestStall: { heldMs: 0, waitedMs: 1 },
    });
  });
});

describe('run-queue reader', () => {
  test('reads the second field of a schedstat line in ms', () => {
    const path = join(tmpdir(), `schedstat-${process.pid}`);
    writeFileSync(path, '281826510 2600299 33\n');
    const reader = runQueueReader(path)!;
    assert.equal(reader.read(), 2.600299);
    reader.close();
  });

  test('is absent where the file cannot be read or holds no number', () => {
    assert.equal(runQueueReader('/nonexistent/schedstat'), null);
    const path = join(tmpdir(), `schedstat-bad-${process.pid}`);
    writeFileSync(path, 'nothing here\n');
    assert.equal(runQueueReader(path), null);
  });

  test(
    'on Linux, a 40 ms busy loop on this thread is a late turn held for its time on the core',
    {
      skip: runQueueReader() === null ? 'no /proc/thread-self/schedstat here' : false,
    },
    async () => {
      const registry = new Registry();
      const stop = watchThreadHolds(registry, 2)!;
      try {
        await new Promise((resolve) => setTimeout(resolve, 20));
        await registry.metrics();
        // This thread's time on the core, ns: the schedstat field the monitor does not read.
        const onCoreNs = () =>
          Number(readFileSync('/proc/thread-self/schedstat', 'latin1').split(' ')[0]);
        const onCoreBefore = onCoreNs();
        const started = performance.now();
        while (performance.now() - started < 40);
        const onCore = (onCoreNs() - onCoreBefore) / 1e6;
        await new Promise((resolve) => setTimeout(resolve, 20));
        const text = await registry.metrics();
        const samples = parseSamples(text);
        const value = (turn: string, part: string) =>
          total(samples, 'pricing_event_loop_late_turn_seconds', { turn, part })! * 1000;
        const stall = value('longest_stall', 'held') + value('longest_stall', 'waited');
        assert.ok(stall >= 36, text);
        // The loop's turn held the thread for the loop's time on the core at least (the longest
        // hold is that turn or a longer one), however long the machine kept it waiting.
        assert.ok(value('longest_hold', 'held') >= onCore - 3, `${onCore} ms on the core\n${text}`);
      } finally {
        stop();
      }
    },
  );
});
