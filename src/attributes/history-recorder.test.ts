import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { MINUTE } from '../domain/clock.ts';
import { testCatalog } from '../http/test-support.ts';
import { createSqlitePriceStore } from '../store/sqlite/sqlite-price-store.ts';
import { BucketObserver, withBucketHistory } from './history-recorder.ts';
import {
  ATTRIBUTE_ITEMS,
  bidSide,
  DOPPLER,
  DOPPLER_VARIANTS,
  listing,
  REDLINE,
  T0,
} from './test-fixtures.ts';

const catalog = testCatalog('cs2', ATTRIBUTE_ITEMS);

describe('bucket observations on the ingest side', () => {
  test("one per bucket of the batch's listings, with the batch's bid, change-only", () => {
    const observer = new BucketObserver(catalog);
    const batch = {
      sides: [bidSide(REDLINE, 'buff163', [900])],
      sales: [],
      listings: [
        listing(REDLINE, 'buff163', 1000, { floatValue: 0.16 }),
        listing(REDLINE, 'buff163', 1100, { floatValue: 0.17 }),
        listing(REDLINE, 'whitemarket', 10, { floatValue: 0.17 }),
      ],
    };
    assert.deepEqual(observer.observe(batch), [
      {
        bucketId: `buff163:${REDLINE.id}:float:0.15-0.18`,
        at: T0,
        askCents: 1000,
        bidCents: 900,
        askListingCount: 2,
        bidOrderCount: 1,
      },
    ]);
    const again = {
      ...batch,
      sides: [],
      listings: batch.listings.map((l) => ({ ...l, fetchedAt: T0 + MINUTE })),
    };
    assert.deepEqual(observer.observe(again), [], 'unchanged within its 10-minute bucket');
    const later = again.listings.map((l) => ({ ...l, fetchedAt: T0 + 10 * MINUTE }));
    assert.equal(
      observer.observe({ ...again, listings: later }).length,
      1,
      'a new 10-minute bucket',
    );
  });

  test('phase variants count for the base item', () => {
    const observer = new BucketObserver(catalog);
    const observed = observer.observe({
      sides: [],
      sales: [],
      listings: [
        listing(DOPPLER_VARIANTS[1]!, 'buff163', 5000, { floatValue: 0.01, phase: 'Ruby' }),
      ],
    });
    assert.deepEqual(
      observed.map((o) => o.bucketId.replace(`buff163:${DOPPLER.id}:`, '')),
      ['float:0.01-0.02', 'tag:ruby', 'tag:ruby:float:0.01-0.02'],
    );
  });

  test('withBucketHistory records after the batch is committed', async () => {
    const store = createSqlitePriceStore({ path: ':memory:' });
    await store.init();
    try {
      const writing = withBucketHistory(store, store, catalog);
      await writing.writeBatch({
        sides: [],
        sales: [],
        listings: [listing(REDLINE, 'csfloat', 1234, { floatValue: 0.2 })],
      });
      const id = `csfloat:${REDLINE.id}:float:0.2-0.21`;
      const rows = await store.readBucketRollups(id, '10m', T0 - MINUTE, T0 + MINUTE);
      assert.deepEqual(
        rows.map((row) => row.close),
        [1234],
      );
      assert.equal((await store.loadListings('cs2')).length, 1);
    } finally {
      await store.close();
    }
  });
});
