import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { SlicedQueue } from './sliced-queue.ts';

const busy = (ms: number) => {
  const start = performance.now();
  while (performance.now() - start < ms) {
    // hold the thread
  }
};

describe('SlicedQueue', () => {
  test('handles entries in arrival order, all of them', async () => {
    const seen: number[] = [];
    const queue = new SlicedQueue<number>(
      (entry) => seen.push(entry),
      (error) => assert.fail(String(error)),
    );
    for (let entry = 0; entry < 5000; entry += 1) queue.push(entry);
    await queue.drained();
    assert.deepEqual(
      seen,
      Array.from({ length: 5000 }, (_, index) => index),
    );
    assert.equal(queue.length, 0);
  });

  test('a burst that takes longer than a slice lets the event loop turn in between', async () => {
    let handled = 0;
    const queue = new SlicedQueue<number>(
      () => {
        busy(2);
        handled += 1;
      },
      (error) => assert.fail(String(error)),
      4,
    );
    for (let entry = 0; entry < 20; entry += 1) queue.push(entry);
    const progress: number[] = [];
    const timer = setInterval(() => progress.push(handled), 0);
    await queue.drained();
    clearInterval(timer);
    assert.equal(handled, 20);
    assert.ok(
      progress.some((count) => count > 0 && count < 20),
      `turns: ${progress.join()}`,
    );
  });

  test('a failing entry is reported and the rest are handled', async () => {
    const errors: unknown[] = [];
    const seen: number[] = [];
    const queue = new SlicedQueue<number>(
      (entry) => {
        if (entry === 1) throw new Error('bad batch');
        seen.push(entry);
      },
      (error) => errors.push(error),
    );
    for (const entry of [0, 1, 2]) queue.push(entry);
    await queue.drained();
    assert.deepEqual(seen, [0, 2]);
    assert.equal(errors.length, 1);
  });
});
