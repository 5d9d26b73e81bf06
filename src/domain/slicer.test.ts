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

  test('while requests keep the loop busy, the next slice waits until they had four times the slice', async (t) => {
    t.mock.timers.enable({ apis: ['setTimeout'] });
    let now = 0;
    const slicer = new Slicer(4, () => now);
    now = 4;
    setImmediate(() => (now += 1)); // a turn of the loop serving requests for 1 ms
    let resumed = false;
    const paused = slicer.pause().then(() => (resumed = true));
    const turn = () => new Promise((resolve) => setImmediate(resolve));
    await turn();
    await turn();
    t.mock.timers.tick(14);
    await turn();
    assert.equal(resumed, false);
    t.mock.timers.tick(1);
    await paused;
    assert.equal(resumed, true);
  });

  test('an idle loop costs no wait', async () => {
    let now = 0;
    const slicer = new Slicer(4, () => now);
    now = 4;
    await slicer.pause();
    assert.equal(slicer.due(), false);
  });
});
