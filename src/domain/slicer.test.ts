import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { BusyShare, Slicer } from './slicer.ts';

describe('Slicer', () => {
  test('due once the budget is used, fresh after a pause', async () => {
    let now = 100;
    const slicer = new Slicer(5, () => now, new BusyShare());
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
    const slicer = new Slicer(4, () => now, new BusyShare());
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

  test('slicers of one share take a fifth of a busy loop between them, not a fifth each', async (t) => {
    t.mock.timers.enable({ apis: ['setTimeout'] });
    let now = 0;
    const share = new BusyShare();
    const [first, second] = [new Slicer(4, () => now, share), new Slicer(4, () => now, share)];
    now = 4; // each used a slice of 4 ms
    setImmediate(() => (now += 1)); // a turn of the loop serving requests for 1 ms
    const resumed: string[] = [];
    const paused = [first, second].map((slicer, index) =>
      slicer.pause().then(() => resumed.push(index === 0 ? 'first' : 'second')),
    );
    const turn = () => new Promise((resolve) => setImmediate(resolve));
    await turn();
    await turn();
    t.mock.timers.tick(15); // 16 ms owed for the first slice, less the 1 ms served
    await paused[0];
    assert.deepEqual(resumed, ['first']);
    t.mock.timers.tick(15);
    await turn();
    assert.deepEqual(resumed, ['first']); // alone, its own debt would have been paid by now
    t.mock.timers.tick(1);
    await paused[1];
    assert.deepEqual(resumed, ['first', 'second']);
  });

  test('what a share owes is capped, so work that ran on an idle loop does not wait long later', () => {
    const share = new BusyShare();
    let paidAt = 0;
    for (let at = 0; at < 1000; at += 4) paidAt = share.owe(at, 4);
    assert.equal(paidAt, 996 + 64);
  });

  test('an idle loop costs no wait', async () => {
    let now = 0;
    const slicer = new Slicer(4, () => now, new BusyShare());
    now = 4;
    await slicer.pause();
    assert.equal(slicer.due(), false);
  });
});
