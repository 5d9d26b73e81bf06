import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Book } from '../../book/book.ts';
import type { IngestBatch, SideSnapshot } from '../../domain/quote.ts';
import { listing, REDLINE } from '../../attributes/test-fixtures.ts';
import { sale } from '../../liquidity/test-fixtures.ts';
import { side } from '../../pricing/snapshot-fixtures.ts';
import { newestSides, splitBatch } from './messages.ts';

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

describe('newestSides', () => {
  /** Hourly steps of 5 items on two markets, both sides, out of order, with a tie at the end. */
  function day(): IngestBatch {
    const sides: SideSnapshot[] = [];
    for (const step of [3, 0, 2, 1, 3]) {
      for (let item = 0; item < 5; item += 1) {
        for (const market of ['skinport', 'csfloat'] as const) {
          const at = { market, itemId: `item-${item}`, fetchedAt: T + step * 3_600_000 };
          const price = 100 + step * 10 + item + sides.length;
          sides.push(
            side('ask', { ...at, prices: [price] }),
            side('bid', { ...at, prices: [price - 5] }),
          );
        }
      }
    }
    return { sides, sales: [sale('skinport', T)], listings: [] };
  }

  const held = (book: Book) =>
    Array.from({ length: 5 }, (_, item) =>
      book
        .sides('cs2', `item-${item}`)
        .map((entry) => [
          entry.market,
          entry.ask?.levels[0]?.price,
          entry.bid?.levels[0]?.price,
          entry.ask?.fetchedAt,
        ]),
    );

  test('one side per key, leaving the book as the whole batch does', () => {
    const whole = day();
    const cut = newestSides(whole);
    assert.equal(cut.sides.length, 5 * 2 * 2);
    assert.deepEqual(cut.sales, whole.sales);
    const direct = new Book();
    direct.apply(whole);
    const reduced = new Book();
    reduced.apply(cut);
    assert.deepEqual(held(reduced), held(direct));
    assert.equal(held(reduced)[0]![0]![3], T + 3 * 3_600_000);
  });

  test('a newer side already held wins over the cut batch as over the whole', () => {
    const live = side('ask', {
      market: 'skinport',
      itemId: 'item-0',
      prices: [7],
      fetchedAt: T + 9e6,
    });
    const direct = new Book();
    direct.apply({ sides: [live], sales: [], listings: [] });
    direct.apply(day());
    const reduced = new Book();
    reduced.apply({ sides: [live], sales: [], listings: [] });
    reduced.apply(newestSides(day()));
    assert.deepEqual(held(reduced), held(direct));
  });

  test('a batch without repeated keys is passed on as it is', () => {
    const small = batch();
    assert.equal(newestSides(small), small);
  });
});
