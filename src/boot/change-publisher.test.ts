import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ChangeEvent } from '../events/change-bus.ts';
import { createMemoryChangeBus } from '../events/memory-change-bus.ts';
import { sale, side } from '../store/contract-fixtures.ts';
import { batchesByGame, createChangePublisher } from './change-publisher.ts';

describe('change publisher', () => {
  test('splits a batch per game and leaves out empty games', () => {
    const cs2 = side();
    const rust = side({ game: 'rust', itemId: 'metal-door' });
    const parts = batchesByGame({ sides: [cs2, rust], sales: [sale()], listings: [] });
    assert.deepEqual(
      parts.map((part) => [part.game, part.batch.sides.length, part.batch.sales.length]),
      [
        ['cs2', 1, 1],
        ['rust', 1, 0],
      ],
    );
    assert.deepEqual(batchesByGame({ sides: [], sales: [], listings: [] }), []);
  });

  test('publishes with its origin; a failing bus is logged once, never thrown', async () => {
    const bus = createMemoryChangeBus();
    const seen: ChangeEvent[] = [];
    bus.subscribe((event) => void seen.push(event));
    const warnings: string[] = [];
    const logger = { warn: (_: object, msg: string) => warnings.push(msg), info() {} };
    const publisher = createChangePublisher(bus, 'ingest:test', logger);
    publisher.apply({ sides: [side()], sales: [], listings: [] });
    await publisher.flush();
    assert.deepEqual(
      seen.map((event) => [event.game, event.origin]),
      [['cs2', 'ingest:test']],
    );
    await bus.close();
    publisher.apply({ sides: [side()], sales: [], listings: [] });
    publisher.apply({ sides: [side()], sales: [], listings: [] });
    await publisher.flush();
    assert.equal(warnings.length, 1);
  });
});
