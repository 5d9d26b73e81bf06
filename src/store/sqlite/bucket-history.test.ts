import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HOUR, MINUTE } from '../../domain/clock.ts';
import { T0 } from '../contract-fixtures.ts';
import { createSqliteBucketHistory } from './bucket-history.ts';
import { openPrices } from './connection.ts';
import { migrate } from './migrate.ts';
import { SQLITE_MIGRATIONS } from './migrations.ts';
import { createSqlitePriceStore } from './sqlite-price-store.ts';
import { bucketHistoryContract } from '../bucket-history-contract.ts';

bucketHistoryContract('sqlite :memory:', async () => ({
  store: createSqlitePriceStore({ path: ':memory:' }),
  cleanup: async () => {},
}));

test('attribute history written keyed by bucket id (version 9) reads the same once keyed time first', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'bucket-history-'));
  const path = join(dir, 'prices.db');
  const observed = (at: number, askCents: number) => ({
    bucketId: 'ak47-ft',
    at,
    askCents,
    bidCents: 900,
    askListingCount: 4,
    bidOrderCount: 2,
  });
  const earlier = openPrices(path);
  migrate(earlier, SQLITE_MIGRATIONS.slice(0, 9), () => T0);
  await createSqliteBucketHistory(() => earlier).recordBucketObservations([
    observed(T0 + MINUTE, 1200),
    observed(T0 + 2 * MINUTE, 1100),
    observed(T0 + 11 * MINUTE, 1300),
  ]);
  const before = await createSqliteBucketHistory(() => earlier).readBucketRollups(
    'ak47-ft',
    '10m',
    T0,
    T0 + HOUR,
  );
  earlier.close();
  const store = createSqlitePriceStore({ path });
  await store.init();
  assert.equal(before.length, 2);
  assert.deepEqual(await store.readBucketRollups('ak47-ft', '10m', T0, T0 + HOUR), before);
  assert.deepEqual(await store.readBucketRollups('ak47-ft', '10m', T0 + 10 * MINUTE, T0 + HOUR), [
    before[1],
  ]);
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});
