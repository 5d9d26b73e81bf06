import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { SlicedQueue } from './sliced-queue.ts';

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
    let now = 0;
    const queue = new SlicedQueue<number>(
      () => {
        now += 2;
        handled += 1;
      },
      (error) => assert.fail(String(error)),
      4,
      () => now,
    );
    for (let entry = 0; entry < 20; entry += 1) queue.push(entry);
    const progress: number[] = [];
    let done = false;
    const observe = () => {
      progress.push(handled);
      if (!done) setImmediate(observe);
    };
    setImmediate(observe);
    await queue.drained();
    done = true;
    assert.equal(handled, 20);
    assert.deepEqual(progress.slice(0, 3), [2, 4, 6], 'two entries of 2 ms per 4 ms slice');
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
