import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createMemoryChangeBus } from './memory-change-bus.ts';
import { changeBusContract } from './change-bus-contract.ts';
import { measurePropagation } from './propagation.ts';
import { sampleBatch } from './test-batches.ts';

changeBusContract('memory', () => createMemoryChangeBus());

describe('memory change bus', () => {
  test('hands subscribers the published batch itself, synchronously', async () => {
    const bus = createMemoryChangeBus();
    const batch = sampleBatch(1);
    let seen: unknown = null;
    bus.subscribe((event) => {
      seen = event.batch;
    });
    await bus.publish({ game: 'cs2', batch, origin: 'all' });
    assert.equal(seen, batch);
  });

  test('handler errors go to the error callback', async () => {
    const errors: unknown[] = [];
    const bus = createMemoryChangeBus((error) => errors.push(error));
    bus.subscribe(() => {
      throw new Error('boom');
    });
    await bus.publish({ game: 'cs2', batch: sampleBatch(), origin: 'all' });
    assert.equal(errors.length, 1);
  });

  test('refuses to publish once closed', async () => {
    const bus = createMemoryChangeBus();
    await bus.close();
    await assert.rejects(bus.publish({ game: 'cs2', batch: sampleBatch(), origin: 'all' }));
  });

  test('measurePropagation reports every probe', async () => {
    const stats = await measurePropagation(createMemoryChangeBus(), 20);
    assert.equal(stats.count, 20);
    assert.ok(stats.p50Ms <= stats.p99Ms && stats.p99Ms <= stats.maxMs);
  });
});
