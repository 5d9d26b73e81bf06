import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Book } from '../book/book.ts';
import { DAY, MINUTE } from '../domain/clock.ts';
import { T0, listing, sale, side } from '../store/contract-fixtures.ts';
import { STREAM_CHUNK } from '../store/price-store.ts';
import { createSqlitePriceStore } from '../store/sqlite/sqlite-price-store.ts';
import { restoreBook, SALES_IN_MEMORY_MS } from './restore.ts';

const ITEMS = STREAM_CHUNK + 7;
const itemId = (index: number) => `item-${index}`;

describe('restoreBook', () => {
  test('streams every side and the recent sales into the book, across chunks', async () => {
    const store = createSqlitePriceStore({ path: ':memory:' });
    await store.init();
    const sides = Array.from({ length: ITEMS }, (_, index) =>
      side({ itemId: itemId(index), levels: [{ price: 100 + index, quantity: 1, orders: null }] }),
    );
    const now = T0 + DAY;
    const sales = Array.from({ length: ITEMS }, (_, index) =>
      sale({ itemId: itemId(index % 3), soldAt: now - index * MINUTE, price: 500 + index }),
    );
    const old = sale({ itemId: itemId(0), soldAt: now - SALES_IN_MEMORY_MS - 1, price: 1 });
    await store.writeBatch({ sides, sales: [...sales, old], listings: [listing()] });
    await store.writeBatch({
      sides: [side({ game: 'rust', itemId: 'rust-item' })],
      sales: [],
      listings: [],
    });

    const book = new Book();
    const counts = await restoreBook(store, book, now);
    assert.deepEqual(counts, { sides: ITEMS + 1, sales: ITEMS, listings: 1, salesStats: 0 });
    for (const index of [0, STREAM_CHUNK - 1, STREAM_CHUNK, ITEMS - 1]) {
      const [held] = book.sides('cs2', itemId(index));
      assert.equal(held?.ask?.levels[0]?.price, 100 + index);
    }
    assert.equal(book.sides('rust', 'rust-item').length, 1);
    const restored = [0, 1, 2].flatMap((index) => book.sales('cs2', itemId(index)));
    assert.equal(restored.length, ITEMS, 'the sale older than the window stays out');
    const first = book.sales('cs2', itemId(0));
    first.forEach((entry, index) => {
      if (index > 0) assert.ok(first[index - 1]!.soldAt <= entry.soldAt, 'oldest first');
    });
    assert.equal(book.listings('cs2', listing().itemId).length, 1);
    await store.close();
  });
});
