import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Book } from './book.ts';
import type { SaleRecord, SideSnapshot } from '../domain/quote.ts';

function side(overrides: Partial<SideSnapshot> = {}): SideSnapshot {
  return {
    game: 'cs2',
    itemId: 'cs2_a',
    market: 'csfloat',
    side: 'ask',
    levels: [{ price: 1000, quantity: 1, orders: 1 }],
    listingCount: 1,
    totalQuantity: 1,
    fetchedAt: 1_000,
    ingestedAt: 1_100,
    sourceUpdatedAt: null,
    sourceTimeKind: null,
    originalCurrency: 'USD',
    ...overrides,
  };
}

function sale(overrides: Partial<SaleRecord> = {}): SaleRecord {
  return {
    game: 'cs2',
    itemId: 'cs2_a',
    market: 'csfloat',
    price: 1000,
    quantity: 1,
    soldAt: 5_000,
    ingestedAt: 6_000,
    originalCurrency: 'USD',
    ...overrides,
  };
}

describe('Book', () => {
  test('a newer side replaces an older one; an older one never overwrites a newer one', () => {
    const book = new Book();
    book.apply({ sides: [side({ fetchedAt: 2_000 })], sales: [], listings: [] });
    book.apply({ sides: [side({ fetchedAt: 1_000, levels: [] })], sales: [], listings: [] });
    assert.equal(book.sides('cs2', 'cs2_a')[0]!.ask!.fetchedAt, 2_000);
    book.apply({ sides: [side({ fetchedAt: 3_000, levels: [] })], sales: [], listings: [] });
    assert.deepEqual(book.sides('cs2', 'cs2_a')[0]!.ask!.levels, []);
  });

  test('games are separate and the last fetch per market is tracked', () => {
    const book = new Book();
    book.apply({ sides: [side({ game: 'rust', fetchedAt: 9_000 })], sales: [], listings: [] });
    assert.deepEqual(book.sides('cs2', 'cs2_a'), []);
    assert.equal(book.lastFetchByMarket('rust').get('csfloat'), 9_000);
    assert.equal(book.lastFetchByMarket('cs2').get('csfloat'), undefined);
  });

  test('sales stay ordered by time and a sale reported twice is kept once', () => {
    const book = new Book();
    book.apply({
      sides: [],
      sales: [sale({ soldAt: 3_000 }), sale({ soldAt: 1_000 })],
      listings: [],
    });
    book.apply({
      sides: [],
      sales: [sale({ soldAt: 3_000 }), sale({ soldAt: 2_000 })],
      listings: [],
    });
    assert.deepEqual(
      book.sales('cs2', 'cs2_a').map((s) => s.soldAt),
      [1_000, 2_000, 3_000],
    );
    book.apply({ sides: [], sales: [sale({ soldAt: 3_000, price: 999 })], listings: [] });
    assert.equal(book.sales('cs2', 'cs2_a').length, 4);
  });

  test('one change event per applied batch and game, with the touched items and markets', () => {
    const book = new Book();
    const events: { game: string; items: string[]; version: number }[] = [];
    book.onChange((c) => events.push({ game: c.game, items: [...c.itemIds], version: c.version }));
    book.apply({ sides: [side(), side({ itemId: 'cs2_b' })], sales: [sale()], listings: [] });
    assert.deepEqual(events, [{ game: 'cs2', items: ['cs2_a', 'cs2_b'], version: 1 }]);
  });

  test('pruneListings drops listings last seen before the cut-off, keeps the rest', () => {
    const book = new Book();
    const base = {
      game: 'cs2' as const,
      itemId: 'cs2_a',
      market: 'csfloat' as const,
      price: 1000,
      floatValue: null,
      paintSeed: null,
      paintIndex: null,
      phase: null,
      inspectLink: null,
      stickers: [],
      isStatTrak: false,
      ingestedAt: 0,
      originalCurrency: 'USD',
    };
    const listings = [
      { ...base, listingId: 'a', fetchedAt: 999 },
      { ...base, listingId: 'b', fetchedAt: 1_000 },
    ];
    book.apply({ sides: [], sales: [], listings });
    assert.equal(book.pruneListings('cs2', 1_000), 1);
    assert.deepEqual(
      book.listings('cs2', 'cs2_a').map((l) => l.listingId),
      ['b'],
    );
  });
});
