import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Slicer } from './slicer.ts';

describe('Slicer', () => {
  test('due once the budget is used, fresh after a pause', async () => {
    let now = 100;
    const slicer = new Slicer(5, () => now);
    assert.equal(slicer.due(), false);
    now = 104.9;
    assert.equal(slicer.due(), false);
    now = 105;
    assert.equal(slicer.due(), true);
    await slicer.pause();
    assert.equal(slicer.due(), false);
    now = 110;
    assert.equal(slicer.due(), true);
  });

  test('a pause lets pending I/O callbacks and timers run before the work goes on', async () => {
    const slicer = new Slicer(0);
    let ran = false;
    setImmediate(() => (ran = true));
    await slicer.step();
    assert.equal(ran, true);
  });
});
