import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Book } from '../../book/book.ts';
import type { IngestBatch } from '../../domain/quote.ts';
import { listing, REDLINE } from '../../attributes/test-fixtures.ts';
import { sale } from '../../liquidity/test-fixtures.ts';
import { side } from '../../pricing/snapshot-fixtures.ts';
import { splitBatch } from './messages.ts';

const T = Date.parse('2026-11-01T12:00:00Z');

/** An item's listings from an older fetch, which the batch's fetch replaces. */
const older = (): IngestBatch => ({
  sides: [],
  sales: [],
  listings: Array.from({ length: 12 }, (_, i) =>
    listing(REDLINE, 'csfloat', 2000 + i, { fetchedAt: T - 60_000 }),
  ),
});

/** Sides of 30 items, their sales, and one fetch of an item's listings. */
function batch(): IngestBatch {
  const items = Array.from({ length: 30 }, (_, index) => `item-${index}`);
  return {
    sides: items.map((itemId, index) =>
      side('ask', { market: 'skinport', prices: [100 + index], fetchedAt: T, itemId }),
    ),
    sales: items.map((itemId, index) => sale('skinport', T - index * 1000, 1, itemId)),
    listings: Array.from({ length: 12 }, (_, i) =>
      listing(REDLINE, 'csfloat', 1000 + i, { fetchedAt: T }),
    ),
  };
}

function state(book: Book) {
  const ids = Array.from({ length: 30 }, (_, index) => `item-${index}`);
  return {
    asks: ids.map((id) => book.sides('cs2', id).map((entry) => entry.ask?.levels[0]?.price)),
    sales: ids.map((id) => book.sales('cs2', id).length),
    listings: book
      .listings('cs2', REDLINE.id)
      .map((held) => held.price)
      .sort(),
  };
}

describe('splitBatch', () => {
  test('parts of at most `size` records leave the book as the whole batch does', () => {
    const whole = batch();
    const parts = splitBatch(whole, 7);
    assert.ok(parts.length > 10);
    for (const part of parts) {
      const records = part.sides.length + part.sales.length + part.listings.length;
      assert.ok(records <= 7, `part of ${records}`);
    }
    const direct = new Book();
    direct.apply(older());
    direct.apply(whole);
    const pieced = new Book();
    pieced.apply(older());
    for (const part of parts) pieced.apply(part);
    assert.deepEqual(state(pieced), state(direct));
    assert.deepEqual(
      state(pieced).listings,
      Array.from({ length: 12 }, (_, i) => 1000 + i),
    );
  });

  test('a batch within the size is sent as it is', () => {
    const small: IngestBatch = { sides: [], sales: [sale('skinport', T)], listings: [] };
    assert.deepEqual(splitBatch(small, 7), [small]);
  });
});
