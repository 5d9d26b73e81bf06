import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createClosers } from './closers.ts';

function recorder() {
  const calls: string[] = [];
  const closer =
    (name: string, fail = false, delayMs = 0) =>
    async () => {
      await new Promise((resolve) => setTimeout(resolve, delayMs));
      calls.push(name);
      if (fail) throw new Error(`${name} failed`);
    };
  return { calls, closer };
}

describe('closers', () => {
  test('close runs the closers last added first, each after the one before finished', async () => {
    const closers = createClosers();
    const { calls, closer } = recorder();
    closers.add(closer('store'));
    closers.add(() => void calls.push('timer'));
    closers.add(closer('server', false, 20));
    await closers.close();
    assert.deepEqual(calls, ['server', 'timer', 'store']);
  });

  test('a second close runs nothing again and returns the same promise', async () => {
    const closers = createClosers();
    const { calls, closer } = recorder();
    closers.add(closer('a'));
    closers.add(closer('b'));
    const first = closers.close();
    const second = closers.close();
    assert.equal(second, first);
    await first;
    await closers.close();
    assert.deepEqual(calls, ['b', 'a']);
  });

  test('a failing closer does not stop the others; close rejects with the first failure', async () => {
    const closers = createClosers();
    const { calls, closer } = recorder();
    closers.add(closer('store', true));
    closers.add(closer('bus'));
    closers.add(closer('server', true));
    await assert.rejects(closers.close(), /server failed/);
    assert.deepEqual(calls, ['server', 'bus', 'store']);
    await assert.rejects(closers.close(), /server failed/);
    assert.deepEqual(calls, ['server', 'bus', 'store']);
  });

  test('a closer added after closing began runs once, after the others', async () => {
    const closers = createClosers();
    const { calls, closer } = recorder();
    closers.add(closer('store'));
    const closing = closers.close();
    closers.add(closer('late worker'));
    await closing;
    await closers.close();
    assert.deepEqual(calls, ['store', 'late worker']);
  });

  test('closing with nothing added resolves', async () => {
    await createClosers().close();
  });
});
