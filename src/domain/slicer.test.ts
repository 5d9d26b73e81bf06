import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Slicer } from './slicer.ts';

describe('Slicer', () => {
  test('due once the budget is used, fresh after a pause', async () => {
    const slicer = new Slicer(5);
    assert.equal(slicer.due(), false);
    const start = performance.now();
    while (performance.now() - start < 6) {
      // spend the budget
    }
    assert.equal(slicer.due(), true);
    await slicer.pause();
    assert.equal(slicer.due(), false);
  });

  test('a pause lets pending I/O callbacks and timers run before the work goes on', async () => {
    const slicer = new Slicer(0);
    let ran = false;
    setImmediate(() => (ran = true));
    await slicer.step();
    assert.equal(ran, true);
  });
});
