import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { MINUTE } from '../domain/clock.ts';
import { listing, REDLINE, T0 } from '../attributes/test-fixtures.ts';
import { Book, MAX_LISTINGS_PER_MARKET } from './book.ts';

describe('held listings: the latest snapshot per (item, market), bounded', () => {
  test("a newer fetch of a market replaces that market's listings of the item only", () => {
    const book = new Book();
    book.apply({
      sides: [],
      sales: [],
      listings: [
        listing(REDLINE, 'csfloat', 1),
        listing(REDLINE, 'csfloat', 2),
        listing(REDLINE, 'buff163', 3),
      ],
    });
    book.apply({
      sides: [],
      sales: [],
      listings: [listing(REDLINE, 'csfloat', 9, { fetchedAt: T0 + MINUTE })],
    });
    const prices = book
      .listings('cs2', REDLINE.id)
      .map((l) => l.price)
      .sort((a, b) => a - b);
    assert.deepEqual(prices, [3, 9]);
    assert.deepEqual(book.listedItemIds('cs2'), [REDLINE.id]);
  });

  test(`at most ${MAX_LISTINGS_PER_MARKET} per (item, market), the cheapest kept`, () => {
    const book = new Book();
    const many = Array.from({ length: MAX_LISTINGS_PER_MARKET + 20 }, (_, i) =>
      listing(REDLINE, 'buff163', 10_000 - i),
    );
    book.apply({ sides: [], sales: [], listings: many });
    const held = book.listings('cs2', REDLINE.id);
    assert.equal(held.length, MAX_LISTINGS_PER_MARKET);
    assert.equal(Math.max(...held.map((l) => l.price)), 10_000 - 20);
  });
});
