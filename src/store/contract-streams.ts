/**
 * Contract cases for the streamed reads the boot restore uses (streamSides, streamSales): the
 * same records as the whole-set loads, in chunks no larger than asked, sales oldest first.
 * Registered by priceStoreContract in contract.ts.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MINUTE } from '../domain/clock.ts';
import type { SaleRecord, SideSnapshot } from '../domain/quote.ts';
import { T0, sale, side, sortSides, withStore } from './contract-fixtures.ts';
import type { PriceStoreFactory } from './contract-fixtures.ts';
import type { ChunkVisitor } from './price-store.ts';

/** A visitor that keeps every chunk it is handed. */
function chunks<T>(): { visit: ChunkVisitor<T>; seen: T[][] } {
  const seen: T[][] = [];
  return { visit: (chunk) => seen.push([...chunk]), seen };
}

const sides = (count: number): SideSnapshot[] =>
  Array.from({ length: count }, (_, index) =>
    side({ itemId: `item-${String(index).padStart(3, '0')}`, side: index % 2 ? 'bid' : 'ask' }),
  );

/** Sales written newest first, some sharing a soldAt, a few before `T0`. */
const sales = (count: number): SaleRecord[] =>
  Array.from({ length: count }, (_, index) =>
    sale({ soldAt: T0 + (count - index - 3) * MINUTE - (index % 2), price: 100 + index }),
  ).concat(sale({ soldAt: T0 + 2 * MINUTE, price: 99 }));

export function streamCases(make: PriceStoreFactory): void {
  test('streamSides hands every stored side once, in chunks of at most the size asked', () =>
    withStore(make, async (store) => {
      await store.writeBatch({ sides: sides(23), sales: [], listings: [] });
      await store.writeBatch({ sides: [side({ game: 'rust' })], sales: [], listings: [] });
      const streamed = chunks<SideSnapshot>();
      const count = await store.streamSides('cs2', streamed.visit, 5);
      assert.equal(count, 23);
      assert.deepEqual(
        streamed.seen.map((chunk) => chunk.length),
        [5, 5, 5, 5, 3],
      );
      assert.deepEqual(sortSides(streamed.seen.flat()), sortSides(await store.loadSides('cs2')));
    }));

  test('streamSales hands the sales since the bound, oldest first across chunks', () =>
    withStore(make, async (store) => {
      await store.writeBatch({ sides: [], sales: sales(17), listings: [] });
      const streamed = chunks<SaleRecord>();
      const count = await store.streamSales('cs2', T0, streamed.visit, 4);
      const flat = streamed.seen.flat();
      assert.equal(count, flat.length);
      assert.ok(streamed.seen.every((chunk) => chunk.length > 0 && chunk.length <= 4));
      assert.ok(flat.every((entry) => entry.soldAt >= T0));
      flat.forEach((entry, index) => {
        if (index > 0) assert.ok(flat[index - 1]!.soldAt <= entry.soldAt, 'oldest first');
      });
      const loaded = await store.loadSales('cs2', T0);
      const key = (entry: SaleRecord) => JSON.stringify(entry);
      assert.deepEqual(flat.map(key).sort(), loaded.map(key).sort());
      assert.equal(flat.length, 16);
    }));

  test('a stream of nothing visits no chunk and counts zero', () =>
    withStore(make, async (store) => {
      await store.writeBatch({ sides: [side()], sales: [sale()], listings: [] });
      const none = chunks<SideSnapshot | SaleRecord>();
      assert.equal(await store.streamSides('rust', none.visit), 0);
      assert.equal(await store.streamSales('cs2', T0 + 1, none.visit), 0);
      assert.deepEqual(none.seen, []);
    }));
}
