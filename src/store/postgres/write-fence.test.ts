import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { MINUTE, manualClock } from '../../domain/clock.ts';
import { T0, side } from '../contract-fixtures.ts';
import { StaleFenceError } from '../price-store.ts';
import { createPostgresPriceStore } from './postgres-price-store.ts';
import { DATABASE_URL, dropSchema, needsPostgres, testSchemaName } from './test-support.ts';

describe('PostgreSQL write fences', needsPostgres, () => {
  const schema = testSchemaName();
  const store = createPostgresPriceStore({
    connectionString: DATABASE_URL,
    schema,
    clock: manualClock(T0),
  });
  after(async () => {
    await store.close();
    await dropSchema(schema);
  });

  const batchAt = (minutes: number, market: 'csfloat' | 'waxpeer' = 'csfloat') => ({
    sides: [side({ market, fetchedAt: T0 + minutes * MINUTE, totalQuantity: minutes + 1 })],
    sales: [],
    listings: [],
  });
  const quantities = async () =>
    (await store.loadSides('cs2')).map((row) => `${row.market}:${row.totalQuantity}`).sort();

  test('a batch under a token older than a committed one is refused whole', async () => {
    await store.init();
    await store.writeBatch(batchAt(1), { scope: 'csfloat', token: 7 });
    await assert.rejects(
      store.writeBatch(batchAt(2), { scope: 'csfloat', token: 6 }),
      (error) => error instanceof StaleFenceError && /csfloat.*6/.test(error.message),
    );
    assert.deepEqual(await quantities(), ['csfloat:2'], 'the stale batch wrote nothing');
    await store.writeBatch(batchAt(3), { scope: 'csfloat', token: 7 });
    await store.writeBatch(batchAt(4), { scope: 'csfloat', token: 8 });
    await assert.rejects(store.writeBatch(batchAt(5), { scope: 'csfloat', token: 7 }));
    await store.writeBatch(batchAt(6, 'waxpeer'), { scope: 'waxpeer', token: 1 });
    assert.deepEqual(await quantities(), ['csfloat:5', 'waxpeer:7'], 'scopes are independent');
  });
});
