import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { applyRetention, DEFAULT_RETENTION } from './retention.ts';
import { HOUR } from '../domain/clock.ts';
import { createSqlitePriceStore } from '../store/sqlite/sqlite-price-store.ts';
import type { ListingRecord } from '../domain/quote.ts';

function listing(listingId: string, fetchedAt: number): ListingRecord {
  return {
    game: 'cs2',
    itemId: 'cs2_a',
    market: 'csfloat',
    listingId,
    price: 1000,
    floatValue: 0.2,
    paintSeed: 1,
    paintIndex: null,
    phase: null,
    inspectLink: null,
    stickers: [],
    isStatTrak: false,
    fetchedAt,
    ingestedAt: fetchedAt,
    originalCurrency: 'USD',
  };
}

describe('retention', () => {
  test('listings unseen for longer than the window are removed, to the millisecond', async () => {
    const store = createSqlitePriceStore({ path: ':memory:' });
    await store.init();
    const now = 10 * HOUR;
    const edge = now - DEFAULT_RETENTION.listingsUnseenMs;
    await store.writeBatch({
      sides: [],
      sales: [],
      listings: [listing('old', edge - 1), listing('edge', edge), listing('new', now)],
    });
    assert.equal(await applyRetention(store, now), 1);
    const left = (await store.loadListings('cs2')).map((l) => l.listingId).sort();
    assert.deepEqual(left, ['edge', 'new']);
    await store.close();
  });
});
