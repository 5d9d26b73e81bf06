/**
 * The PriceStore contract: node:test cases every implementation must pass, written against
 * the port only so SQLite and PostgreSQL run them unchanged.
 *
 * `makeStore` returns a fresh, empty store (init() not yet called; the suite calls it) and a
 * `cleanup` that the suite calls after close() to remove whatever the store left behind.
 *
 * Atomicity is checked by fault injection through the port: a batch whose last row breaks a
 * NOT NULL field, or carries a fractional price, must reject and leave no trace of its
 * earlier rows.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { atomicityCases, gameIsolationCases, sideCases } from './contract-batches.ts';
import { liveWriteCases } from './contract-live-writes.ts';
import { T0, fetchRecord, listing, sale, side, withStore } from './contract-fixtures.ts';
import type { PriceStoreFactory } from './contract-fixtures.ts';
import { liveTableCases } from './contract-live.ts';
import { progressCases } from './contract-progress.ts';
import { fetchCases, listingCases, retentionCases, saleCases } from './contract-records.ts';
import { streamCases } from './contract-streams.ts';

export type { PriceStoreFactory } from './contract-fixtures.ts';

function lifecycleCases(make: PriceStoreFactory): void {
  test('init is idempotent and keeps what was written', () =>
    withStore(make, async (store) => {
      await store.writeBatch({ sides: [side()], sales: [sale()], listings: [listing()] });
      await store.init();
      await store.init();
      assert.deepEqual(await store.loadSides('cs2'), [side()]);
      assert.deepEqual(await store.loadSales('cs2', 0), [sale()]);
      assert.deepEqual(await store.loadListings('cs2'), [listing()]);
    }));

  test('a new store is empty; fetch records and empty batches keep it so', () =>
    withStore(make, async (store) => {
      assert.equal(await store.isEmpty(), true);
      await store.recordFetches([fetchRecord()]);
      await store.writeBatch({ sides: [], sales: [], listings: [] });
      assert.equal(await store.isEmpty(), true);
      assert.deepEqual(await store.loadSides('cs2'), []);
      assert.deepEqual(await store.loadSales('cs2', 0), []);
      assert.deepEqual(await store.loadListings('rust'), []);
    }));

  const firstWrites = {
    side: { sides: [side()], sales: [], listings: [] },
    sale: { sides: [], sales: [sale()], listings: [] },
    listing: { sides: [], sales: [], listings: [listing()] },
  };
  for (const [kind, batch] of Object.entries(firstWrites)) {
    test(`writing a ${kind} makes the store non-empty for good`, () =>
      withStore(make, async (store) => {
        await store.writeBatch(batch);
        assert.equal(await store.isEmpty(), false);
        await store.prune({ fetchesBeforeMs: T0 + 1, salesBeforeMs: T0 + 1 });
        await store.pruneListings('cs2', 'csfloat', T0 + 1);
        assert.equal(await store.isEmpty(), false, 'pruning does not make a store new again');
      }));
  }

  test('a failed batch does not count as a write', () =>
    withStore(make, async (store) => {
      const broken = { ...sale(), soldAt: null as unknown as number };
      await assert.rejects(store.writeBatch({ sides: [], sales: [sale(), broken], listings: [] }));
      assert.equal(await store.isEmpty(), true);
    }));
}

export function priceStoreContract(name: string, makeStore: PriceStoreFactory): void {
  describe(`PriceStore contract: ${name}`, () => {
    describe('lifecycle', () => lifecycleCases(makeStore));
    describe('sides', () => sideCases(makeStore));
    describe('latest-state writes', () => liveWriteCases(makeStore));
    describe('atomicity', () => atomicityCases(makeStore));
    describe('sales', () => saleCases(makeStore));
    describe('streamed reads', () => streamCases(makeStore));
    describe('listings', () => listingCases(makeStore));
    describe('fetch records', () => fetchCases(makeStore));
    describe('retention', () => retentionCases(makeStore));
    describe('games', () => gameIsolationCases(makeStore));
    describe('live-data tables', () => liveTableCases(makeStore));
    describe('job progress', () => progressCases(makeStore));
  });
}
