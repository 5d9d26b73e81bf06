import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { Registry } from 'prom-client';
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
    'on Linux, a 40 ms busy loop on this thread is one late turn, split as the kernel counted it',
    {
      skip: runQueueReader() === null ? 'no /proc/thread-self/schedstat here' : false,
    },
    async () => {
      const registry = new Registry();
      const stop = watchThreadHolds(registry, 2)!;
      const queue = runQueueReader()!;
      try {
        await new Promise((resolve) => setTimeout(resolve, 20));
        await registry.metrics();
        const waitedBefore = queue.read();
        const started = performance.now();
        while (performance.now() - started < 40);
        const waitedInLoop = queue.read() - waitedBefore;
        await new Promise((resolve) => setTimeout(resolve, 20));
        const text = await registry.metrics();
        const value = (part: string) =>
          Number(
            new RegExp(
              `^pricing_event_loop_late_turn_seconds\\{turn="longest_stall",part="${part}"\\} (\\S+)$`,
              'm',
            ).exec(text)![1],
          ) * 1000;
        assert.ok(value('held') + value('waited') >= 36, text);
        // The turn holds the loop and the timer's own instants around it, nothing more.
        assert.ok(Math.abs(value('waited') - waitedInLoop) <= 4, `${waitedInLoop} ms\n${text}`);
      } finally {
        queue.close();
        stop();
      }
    },
  );
});
