import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { MarketId } from '../domain/markets.ts';
import { firstPollingWave } from './first-backfill.ts';

function fakeLog(fetched: Set<MarketId>) {
  return { byMarket: (market: MarketId) => (fetched.has(market) ? [{}] : []) } as never;
}

describe('firstPollingWave', () => {
  test('resolves once every polled market has fetched', async () => {
    // The wave's own timer is unref'd; this keeps the test's event loop alive meanwhile.
    const keepAlive = setInterval(() => undefined, 100);
    const fetched = new Set<MarketId>(['skinport']);
    let done = false;
    const wave = firstPollingWave(fakeLog(fetched), ['skinport', 'csfloat'], 0, 60_000).then(
      () => (done = true),
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.equal(done, false);
    fetched.add('csfloat');
    await wave;
    clearInterval(keepAlive);
    assert.equal(done, true);
  });

  test('resolves at the cap when a market never answers', async () => {
    const wave = firstPollingWave(fakeLog(new Set()), ['skinport'], 0, 0);
    const nextTurn = new Promise((resolve) => setImmediate(() => resolve('next turn')));
    assert.equal(await Promise.race([wave.then(() => 'at the cap'), nextTurn]), 'at the cap');
  });
});
