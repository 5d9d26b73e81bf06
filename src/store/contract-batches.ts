/**
 * Contract cases for writeBatch: side round trips and upserts, one-transaction atomicity,
 * and game isolation. Registered by priceStoreContract in contract.ts.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { IngestBatch } from '../domain/quote.ts';
import type { PriceStore } from './price-store.ts';
import {
  T0,
  bareListing,
  bareSide,
  listing,
  sale,
  side,
  sortListings,
  sortSides,
  withNull,
  withStore,
} from './contract-fixtures.ts';
import type { PriceStoreFactory } from './contract-fixtures.ts';

function batch(parts: Partial<IngestBatch>): IngestBatch {
  return { sides: [], sales: [], listings: [], ...parts };
}

async function snapshot(store: PriceStore) {
  return {
    sides: sortSides(await store.loadSides('cs2')),
    sales: await store.loadSales('cs2', 0),
    listings: sortListings(await store.loadListings('cs2')),
  };
}

export function sideCases(make: PriceStoreFactory): void {
  test('sides round-trip exactly, with every field set and with every nullable null', () =>
    withStore(make, async (store) => {
      const full = side();
      const bare = bareSide();
      const deep = side({
        market: 'buff163',
        levels: Array.from({ length: 50 }, (_, i) => ({
          price: 9_999_999_999 - i * 7,
          quantity: 1 + i,
          orders: i % 2 === 0 ? null : i,
        })),
      });
      await store.writeBatch(batch({ sides: [full, bare, deep] }));
      assert.deepEqual(sortSides(await store.loadSides('cs2')), sortSides([full, bare, deep]));
    }));

  test('a side upserts by (game, item, market, side): the newer snapshot replaces the old', () =>
    withStore(make, async (store) => {
      await store.writeBatch(batch({ sides: [side(), side({ side: 'bid' })] }));
      const newer = bareSide({ side: 'ask', fetchedAt: T0 + 60_000, originalCurrency: 'USD' });
      await store.writeBatch(batch({ sides: [newer] }));
      const expected = sortSides([newer, side({ side: 'bid' })]);
      assert.deepEqual(sortSides(await store.loadSides('cs2')), expected);
    }));

  test('an older snapshot never replaces a newer stored one; an equally old one does', () =>
    withStore(make, async (store) => {
      const newer = side({ fetchedAt: T0 + 60_000, totalQuantity: 5 });
      await store.writeBatch(batch({ sides: [newer] }));
      const older = side({ levels: [{ price: 999, quantity: 1, orders: null }], totalQuantity: 1 });
      await store.writeBatch(batch({ sides: [older] }));
      assert.deepEqual(await store.loadSides('cs2'), [newer], 'past data imported after live');
      const sameTime = side({ fetchedAt: T0 + 60_000, totalQuantity: 7 });
      await store.writeBatch(batch({ sides: [sameTime] }));
      assert.deepEqual(await store.loadSides('cs2'), [sameTime]);
    }));

  test('within one batch the later snapshot of the same key wins', () =>
    withStore(make, async (store) => {
      const later = side({ levels: [{ price: 999, quantity: 1, orders: null }], totalQuantity: 1 });
      await store.writeBatch(batch({ sides: [side(), later] }));
      assert.deepEqual(await store.loadSides('cs2'), [later]);
    }));

  test('writeBatch counts what changed: the same batch written again changes nothing', () =>
    withStore(make, async (store) => {
      const first = batch({
        sides: [side(), side({ side: 'bid' })],
        sales: [sale()],
        listings: [listing(), bareListing()],
      });
      assert.deepEqual(await store.writeBatch(first), { sides: 2, sales: 1, listings: 2 });
      const stored = await snapshot(store);
      const resent = { ...first, sides: first.sides.map((s) => ({ ...s, ingestedAt: T0 + 999 })) };
      assert.deepEqual(await store.writeBatch(resent), { sides: 0, sales: 0, listings: 0 });
      assert.deepEqual(await snapshot(store), stored, 'a re-sent batch keeps the first rows');
      const later = batch({
        sides: [
          side({ fetchedAt: T0 + 60_000, listingCount: 18 }),
          side({ side: 'bid', totalQuantity: 99 }),
        ],
        listings: [
          listing({ fetchedAt: T0 + 60_000, price: 1300 }),
          bareListing({ fetchedAt: T0 - 60_000 }),
        ],
      });
      assert.deepEqual(await store.writeBatch(later), { sides: 2, sales: 0, listings: 1 });
    }));

  test('sides, sales and listings of one batch all land together', () =>
    withStore(make, async (store) => {
      const parts = { sides: [side()], sales: [sale()], listings: [listing()] };
      await store.writeBatch(batch(parts));
      assert.deepEqual(await snapshot(store), parts);
    }));
}

export function atomicityCases(make: PriceStoreFactory): void {
  const broken: Array<[string, Partial<IngestBatch>]> = [
    ['a listing with a null item id', { listings: [listing(), withNull(listing(), 'itemId')] }],
    ['a sale with a null market', { sales: [sale(), withNull(sale(), 'market')] }],
    ['a side with a null fetchedAt', { sides: [bareSide(), withNull(side(), 'fetchedAt')] }],
    ['a sale priced 11.5 cents', { sales: [sale({ price: 11.5 })] }],
    [
      'a level priced 11.5 cents',
      { sides: [side({ levels: [{ price: 11.5, quantity: 1, orders: null }] })] },
    ],
  ];
  for (const [label, fault] of broken) {
    test(`a batch containing ${label} fails and leaves nothing behind`, () =>
      withStore(make, async (store) => {
        const before = {
          sides: [side()],
          sales: [sale({ soldAt: T0 - 1 })],
          listings: [listing()],
        };
        await store.writeBatch(batch(before));
        const faulty: IngestBatch = {
          sides: [side({ totalQuantity: 99 }), bareSide({ itemId: 'new' }), ...(fault.sides ?? [])],
          sales: [sale({ itemId: 'new' }), ...(fault.sales ?? [])],
          listings: [bareListing({ listingId: 'L-new' }), ...(fault.listings ?? [])],
        };
        await assert.rejects(store.writeBatch(faulty));
        assert.deepEqual(await snapshot(store), before);
        await store.writeBatch(batch({ sales: [sale({ itemId: 'after' })] }));
        assert.equal((await store.loadSales('cs2', 0)).length, 2, 'the store still takes writes');
      }));
  }
}

export function gameIsolationCases(make: PriceStoreFactory): void {
  test('cs2 and rust never see each other, even under identical keys', () =>
    withStore(make, async (store) => {
      const shared = { itemId: 'shared-name', market: 'skinport' as const };
      const cs2 = { sides: [side(shared)], sales: [sale(shared)], listings: [listing(shared)] };
      const rust = {
        sides: [side({ ...shared, game: 'rust', totalQuantity: 1 })],
        sales: [sale({ ...shared, game: 'rust' })],
        listings: [listing({ ...shared, game: 'rust', price: 5 })],
      };
      await store.writeBatch(batch(cs2));
      await store.writeBatch(batch(rust));
      assert.deepEqual(await store.loadSides('cs2'), cs2.sides);
      assert.deepEqual(await store.loadSides('rust'), rust.sides);
      assert.deepEqual(await store.loadSales('rust', 0), rust.sales);
      assert.equal(await store.pruneListings('cs2', 'skinport', T0 + 1), 1);
      assert.deepEqual(await store.loadListings('cs2'), []);
      assert.deepEqual(await store.loadListings('rust'), rust.listings);
    }));
}
