/**
 * Contract cases for the durable monthly quota usage of an AccessStore (monthly-usage.ts), run by
 * accessStoreContract for every implementation. `withStore` hands each case a fresh, initialised
 * store.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { AccessStore } from './access-store.ts';

type WithStore = (fn: (store: AccessStore) => Promise<void>) => () => Promise<void>;

export function monthlyUsageContract(withStore: WithStore): void {
  test(
    'monthly usage starts at 0 for any account and month',
    withStore(async (store) => {
      assert.equal(await store.monthlyUsage('acc_contract0001', 202611), 0);
      assert.deepEqual(await store.addMonthlyUsage([]), []);
    }),
  );

  test(
    'monthly usage adds deltas per account and month and returns the new totals',
    withStore(async (store) => {
      const first = await store.addMonthlyUsage([
        { accountId: 'acc_a', month: 202611, count: 5 },
        { accountId: 'acc_b', month: 202611, count: 2 },
      ]);
      assert.deepEqual(first, [
        { accountId: 'acc_a', month: 202611, used: 5 },
        { accountId: 'acc_b', month: 202611, used: 2 },
      ]);
      const second = await store.addMonthlyUsage([
        { accountId: 'acc_a', month: 202612, count: 1 },
        { accountId: 'acc_a', month: 202611, count: 7 },
      ]);
      assert.deepEqual(second, [
        { accountId: 'acc_a', month: 202612, used: 1 },
        { accountId: 'acc_a', month: 202611, used: 12 },
      ]);
      assert.equal(await store.monthlyUsage('acc_a', 202611), 12);
      assert.equal(await store.monthlyUsage('acc_a', 202612), 1);
      assert.equal(await store.monthlyUsage('acc_b', 202611), 2);
      assert.equal(await store.monthlyUsage('acc_b', 202612), 0);
    }),
  );

  test(
    'repeated (account, month) pairs in one write are merged into one total',
    withStore(async (store) => {
      const totals = await store.addMonthlyUsage([
        { accountId: 'acc_z', month: 202611, count: 3 },
        { accountId: 'acc_a', month: 202611, count: 1 },
        { accountId: 'acc_z', month: 202611, count: 4 },
      ]);
      assert.deepEqual(totals, [
        { accountId: 'acc_z', month: 202611, used: 7 },
        { accountId: 'acc_a', month: 202611, used: 1 },
      ]);
    }),
  );

  test(
    'large totals stay exact',
    withStore(async (store) => {
      const big = Number.MAX_SAFE_INTEGER - 10;
      await store.addMonthlyUsage([{ accountId: 'acc_a', month: 202611, count: big }]);
      await store.addMonthlyUsage([{ accountId: 'acc_a', month: 202611, count: 10 }]);
      assert.equal(await store.monthlyUsage('acc_a', 202611), Number.MAX_SAFE_INTEGER);
    }),
  );

  test(
    'an invalid delta rejects the whole write',
    withStore(async (store) => {
      const valid = { accountId: 'acc_a', month: 202611, count: 1 };
      const invalid = [
        { ...valid, count: 0 },
        { ...valid, count: -3 },
        { ...valid, count: 1.5 },
        { ...valid, count: Number.NaN },
        { ...valid, month: 202613 },
        { ...valid, month: 2026 },
      ];
      for (const delta of invalid) {
        await assert.rejects(store.addMonthlyUsage([valid, delta]), RangeError);
      }
      assert.equal(await store.monthlyUsage('acc_a', 202611), 0);
    }),
  );

  test(
    'usage writes do not move the access version',
    withStore(async (store) => {
      const before = await store.version();
      await store.addMonthlyUsage([{ accountId: 'acc_a', month: 202611, count: 9 }]);
      await store.monthlyUsage('acc_a', 202611);
      assert.equal(await store.version(), before);
    }),
  );
}
