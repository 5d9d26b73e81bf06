import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Book } from '../book/book.ts';
import type { CatalogItem } from '../domain/item.ts';
import { ask, bid } from './snapshot-fixtures.ts';
import { itemsAllRows } from './items-all.ts';

const T = Date.parse('2026-11-01T12:00:00Z');

function item(id: string): CatalogItem {
  return { id, game: 'cs2', marketHashName: `Item ${id}`, slug: id, category: 'skin' };
}

describe('itemsAllRows', () => {
  const book = new Book();
  book.apply({
    sides: [
      ask({ market: 'skinport', prices: [300, 400], fetchedAt: T, itemId: 'a' }),
      ask({ market: 'csfloat', prices: [200], fetchedAt: T - 5000, itemId: 'a' }),
      bid({ market: 'csfloat', prices: [150], fetchedAt: T, itemId: 'a' }),
      bid({ market: 'csfloat', prices: [150], fetchedAt: T, itemId: 'b' }),
    ],
    sales: [],
    listings: [],
  });
  const sidesOf = (id: string) => book.bestAsks('cs2', id);

  test('one row per catalog item with best asks cheapest first and the aggregate', () => {
    const rows = itemsAllRows([item('a'), item('b'), item('c')], sidesOf);
    assert.deepEqual(rows[0], {
      id: 'a',
      name: 'Item a',
      latestPrices: [
        {
          market: 'csfloat',
          effectiveUsdCents: 200,
          fetchedAt: new Date(T - 5000).toISOString(),
          originalCurrency: 'USD',
        },
        {
          market: 'skinport',
          effectiveUsdCents: 300,
          fetchedAt: new Date(T).toISOString(),
          originalCurrency: 'USD',
        },
      ],
      priceAggregates: {
        minPrice: 200,
        maxPrice: 300,
        avgPrice: 250,
        medianPrice: 250,
        stdDev: 50,
        updatedAt: new Date(T).toISOString(),
      },
    });
    assert.deepEqual(rows[1], { id: 'b', name: 'Item b', latestPrices: [], priceAggregates: null });
    assert.equal(rows.length, 3);
  });

  test('stops at the row cap', () => {
    assert.equal(itemsAllRows([item('a'), item('b'), item('c')], sidesOf, 2).length, 2);
  });
});
