/**
 * Contract cases for a job's progress (JobProgress): stored with the batch that carries it,
 * all or nothing, alone when the batch is empty, forgotten with a null state.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sale, side, withStore, type PriceStoreFactory } from './contract-fixtures.ts';

const EMPTY = { sides: [], sales: [], listings: [] };

export function progressCases(make: PriceStoreFactory): void {
  test('a job has no progress until a batch stores one; a later one replaces it', () =>
    withStore(make, async (store) => {
      assert.equal(await store.jobProgress('backfill'), null);
      await store.writeBatch({ ...EMPTY, sides: [side()] }, undefined, {
        job: 'backfill',
        state: 'chunk 1',
      });
      await store.writeBatch({ ...EMPTY, sales: [sale()] }, undefined, {
        job: 'backfill',
        state: 'chunk 2',
      });
      assert.equal(await store.jobProgress('backfill'), 'chunk 2');
      assert.equal(await store.jobProgress('another job'), null);
    }));

  test('an empty batch stores the progress alone; a null state forgets the job', () =>
    withStore(make, async (store) => {
      await store.writeBatch(EMPTY, undefined, { job: 'backfill', state: 'begun' });
      assert.equal(await store.jobProgress('backfill'), 'begun');
      assert.equal(await store.isEmpty(), true, 'progress alone is not data');
      await store.writeBatch(EMPTY, undefined, { job: 'backfill', state: null });
      assert.equal(await store.jobProgress('backfill'), null);
    }));

  test('a failed batch stores none of its progress', () =>
    withStore(make, async (store) => {
      await store.writeBatch({ ...EMPTY, sales: [sale()] }, undefined, {
        job: 'backfill',
        state: 'chunk 1',
      });
      const broken = sale({ itemId: 'new', price: 11.5 });
      await assert.rejects(
        store.writeBatch({ ...EMPTY, sales: [broken] }, undefined, {
          job: 'backfill',
          state: 'chunk 2',
        }),
      );
      assert.equal(await store.jobProgress('backfill'), 'chunk 1');
    }));
}
