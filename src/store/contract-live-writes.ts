/**
 * Contract cases for the latest-state write rules of live-writes.ts: a re-fetch that finds a
 * side or listing unchanged writes nothing (stored times lag, never lead), and a live listing
 * is re-confirmed once its stored fetchedAt is LISTING_CONFIRM_MS behind.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { IngestBatch } from '../domain/quote.ts';
import { LISTING_CONFIRM_MS } from './live-writes.ts';
import { T0, listing, side, sortSides, withStore } from './contract-fixtures.ts';
import type { PriceStoreFactory } from './contract-fixtures.ts';

function batch(parts: Partial<IngestBatch>): IngestBatch {
  return { sides: [], sales: [], listings: [], ...parts };
}

export function liveWriteCases(make: PriceStoreFactory): void {
  test('a newer fetch of an unchanged side writes nothing: the stored side keeps its times', () =>
    withStore(make, async (store) => {
      await store.writeBatch(batch({ sides: [side(), side({ side: 'bid' })] }));
      const confirmed = side({
        fetchedAt: T0 + 3_600_000,
        ingestedAt: T0 + 3_600_250,
        sourceUpdatedAt: T0 + 3_500_000,
      });
      assert.deepEqual(await store.writeBatch(batch({ sides: [confirmed] })), {
        sides: 0,
        sales: 0,
        listings: 0,
      });
      const stored = sortSides(await store.loadSides('cs2'));
      assert.deepEqual(stored, sortSides([side(), side({ side: 'bid' })]));
    }));

  test('a newer fetch that changes any content field replaces the side whole', () =>
    withStore(make, async (store) => {
      await store.writeBatch(batch({ sides: [side()] }));
      const changes = [
        { levels: [{ price: 1233, quantity: 2, orders: null }] },
        { listingCount: 18 },
        { totalQuantity: 4 },
        { sourceTimeKind: 'generated_at' },
        { originalCurrency: 'USD' },
      ];
      let at = T0;
      for (const change of changes) {
        at += 60_000;
        const next = side({ ...change, fetchedAt: at, sourceUpdatedAt: at - 1000 });
        assert.equal((await store.writeBatch(batch({ sides: [next] }))).sides, 1);
        assert.deepEqual(await store.loadSides('cs2'), [next]);
      }
    }));

  test('an unchanged listing is re-confirmed only once its stored fetchedAt is due', () =>
    withStore(make, async (store) => {
      await store.writeBatch(batch({ listings: [listing()] }));
      const soon = listing({ fetchedAt: T0 + LISTING_CONFIRM_MS - 1, ingestedAt: T0 + 1 });
      assert.equal((await store.writeBatch(batch({ listings: [soon] }))).listings, 0);
      assert.deepEqual(await store.loadListings('cs2'), [listing()]);
      const due = listing({ fetchedAt: T0 + LISTING_CONFIRM_MS, ingestedAt: T0 + 2 });
      assert.equal((await store.writeBatch(batch({ listings: [due] }))).listings, 1);
      assert.deepEqual(await store.loadListings('cs2'), [due]);
      const repriced = listing({ fetchedAt: T0 + LISTING_CONFIRM_MS + 1, price: 1299 });
      assert.equal((await store.writeBatch(batch({ listings: [repriced] }))).listings, 1);
      assert.deepEqual(await store.loadListings('cs2'), [repriced]);
    }));
}
