import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { Book } from '../book/book.ts';
import type { MarketId } from '../domain/markets.ts';
import { collectMarketBookStats, type MarketBookStats } from '../pricing/market-health.ts';
import { side } from '../pricing/snapshot-fixtures.ts';
import { BookViews, hasQuotes } from './book-views.ts';
import { CS2_ITEMS, RUST_ITEMS, T0, testCatalog } from './test-support.ts';

const catalogs = { cs2: testCatalog('cs2', CS2_ITEMS), rust: testCatalog('rust', RUST_ITEMS) };
const MARKETS: MarketId[] = ['csfloat', 'skinport', 'steamcommunity', 'buff163'];

const sideArbitrary = fc.record({
  kind: fc.constantFrom('ask' as const, 'bid' as const),
  itemId: fc.constantFrom(...CS2_ITEMS.map((item) => item.id), 'not-in-catalog'),
  market: fc.constantFrom(...MARKETS),
  prices: fc.array(fc.integer({ min: 1, max: 50 }), { maxLength: 2 }),
  fetchedAt: fc.constantFrom(T0, T0 - 20 * 60_000, T0 - 40 * 60_000),
  listingCount: fc.option(fc.integer({ min: 0, max: 9 })),
});

type Spec = typeof sideArbitrary extends fc.Arbitrary<infer T> ? T : never;

function apply(book: Book, batch: readonly Spec[]): void {
  book.apply({
    sides: batch.map(({ kind, ...spec }) => side(kind, { ...spec, game: 'cs2' })),
    sales: [],
    listings: [],
  });
}

/** What the views must say, computed from scratch over the whole book. */
function expected(book: Book, markets: ReadonlySet<MarketId> | null) {
  const sides = (id: string) => book.sides('cs2', id);
  const quoted = CS2_ITEMS.filter((item) => hasQuotes(sides(item.id), { markets: null }));
  const count = (id: string) => sides(id).filter((entry) => hasQuotes([entry], ALL)).length;
  const ranked = quoted
    .map((item, index) => ({ item, index }))
    .sort((a, b) => count(b.item.id) - count(a.item.id) || a.index - b.index)
    .map(({ item }) => item.id);
  const crossed = ranked.filter((id) => {
    const tops = (kind: 'ask' | 'bid', wanted: readonly MarketId[]) =>
      sides(id)
        .filter((entry) => wanted.includes(entry.market) && entry[kind]?.levels.length)
        .map((entry) => entry[kind]!.levels[0]!.price);
    return Math.max(...tops('bid', sellers(markets))) > Math.min(...tops('ask', buyers(markets)));
  });
  return {
    quoted: quoted.map((item) => item.id),
    selected: CS2_ITEMS.filter((item) => hasQuotes(sides(item.id), { markets })).map(
      (item) => item.id,
    ),
    ranked,
    crossed: { evaluated: ranked.length, crossed },
    stats: comparable(collectMarketBookStats(quoted.map((item) => sides(item.id)))),
  };
}

const ALL = { markets: null };
const buyers = (markets: ReadonlySet<MarketId> | null) =>
  MARKETS.filter((market) => markets?.has(market) ?? true);
const sellers = (markets: ReadonlySet<MarketId> | null) =>
  buyers(markets).filter((market) => market !== 'steamcommunity');

function comparable(stats: Map<MarketId, MarketBookStats>) {
  return [...stats]
    .map(([market, held]) => ({
      market,
      askRows: held.askRows,
      listings: held.listings,
      quoteTimes: [...held.quoteTimes].sort((a, b) => a[0] - b[0]),
    }))
    .sort((a, b) => a.market.localeCompare(b.market));
}

function actual(views: BookViews, markets: ReadonlySet<MarketId> | null) {
  const ids = (items: readonly { id: string }[]) => items.map((item) => item.id);
  return {
    quoted: ids(views.quotedItems('cs2')),
    selected: ids(views.quotedIn('cs2', { markets })),
    ranked: ids(views.arbitrageCandidates('cs2', 100)),
    crossed: (({ evaluated, crossed }) => ({ evaluated, crossed: ids(crossed) }))(
      views.crossedCandidates('cs2', 100, markets, sellers(markets)),
    ),
    stats: comparable(views.marketStats('cs2')),
  };
}

describe('book index', () => {
  test('after any sequence of batches the views equal a scan of the whole book', () => {
    fc.assert(
      fc.property(
        fc.array(fc.array(sideArbitrary, { minLength: 1, maxLength: 6 }), { maxLength: 12 }),
        fc.nat({ max: 12 }),
        fc.option(fc.subarray(MARKETS, { minLength: 1 })),
        (batches, joinAt, selected) => {
          const book = new Book();
          const markets = selected === null ? null : new Set(selected);
          let views: BookViews | null = null;
          batches.forEach((batch, index) => {
            if (index === joinAt) views = new BookViews(book, catalogs);
            apply(book, batch);
            if (views) assert.deepEqual(actual(views, markets), expected(book, markets));
          });
          views ??= new BookViews(book, catalogs);
          assert.deepEqual(actual(views, markets), expected(book, markets));
          views.close();
        },
      ),
      { numRuns: 300 },
    );
  });

  test('candidates stop at the limit, and filtering keeps the given order', () => {
    const book = new Book();
    const views = new BookViews(book, catalogs);
    apply(book, [
      {
        kind: 'ask',
        itemId: 'cs2-vulcan-mw',
        market: 'csfloat',
        prices: [5],
        fetchedAt: T0,
        listingCount: null,
      },
      {
        kind: 'bid',
        itemId: 'cs2-vulcan-mw',
        market: 'buff163',
        prices: [4],
        fetchedAt: T0,
        listingCount: null,
      },
      {
        kind: 'ask',
        itemId: 'cs2-redline-ft',
        market: 'skinport',
        prices: [5],
        fetchedAt: T0,
        listingCount: null,
      },
    ]);
    assert.deepEqual(
      views.arbitrageCandidates('cs2', 1).map((item) => item.id),
      ['cs2-vulcan-mw'],
    );
    const reversed = [...CS2_ITEMS].reverse();
    assert.deepEqual(
      views
        .filterQuoted('cs2', reversed, { markets: new Set(['skinport', 'buff163']) })
        .map((item) => item.id),
      ['cs2-vulcan-mw', 'cs2-redline-ft'],
    );
  });
});
