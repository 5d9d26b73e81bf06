import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { MarketId } from '../domain/markets.ts';
import type { Level, SideSnapshot } from '../domain/quote.ts';
import { Book, type MarketSides } from './book.ts';
import { LevelArena } from './level-arena.ts';
import { RecentReads } from './recent-reads.ts';
import { SideStore } from './side-store.ts';
import { StringTable } from './string-table.ts';

const ITEMS = ['cs2_a', 'cs2_b', 'cs2_c', 'cs2_d'];
const MARKETS: MarketId[] = ['csfloat', 'buff163', 'skinport', 'dmarket', 'waxpeer'];
const T0 = 1_764_000_000_000;

/** Mostly int32 counts; now and then one the columns cannot hold (kept as applied). */
const count = fc.oneof(
  { weight: 20, arbitrary: fc.integer({ min: 0, max: 0x7fffffff }) },
  { weight: 1, arbitrary: fc.constantFrom(-1, 1.5, 2 ** 31, 2 ** 40, -0) },
);
const level: fc.Arbitrary<Level> = fc
  .record({
    price: count,
    quantity: count,
    orders: fc.option(count),
  })
  .map((fields) => ({ ...fields }));
const time = fc.integer({ min: 0, max: 0x7fffffff }).map((ms) => T0 + ms);
const sideSnapshot: fc.Arbitrary<SideSnapshot> = fc
  .record({
    game: fc.constantFrom('cs2' as const, 'rust' as const),
    itemId: fc.constantFrom(...ITEMS),
    market: fc.constantFrom(...MARKETS),
    side: fc.constantFrom('ask' as const, 'bid' as const),
    levels: fc.array(level, { maxLength: 12 }),
    listingCount: fc.option(count),
    totalQuantity: count,
    fetchedAt: fc.integer({ min: 0, max: 50 }).map((step) => T0 + step * 1_000),
    ingestedAt: time,
    sourceUpdatedAt: fc.option(fc.oneof(time, fc.constant(Number.NaN))),
    sourceTimeKind: fc.option(fc.constantFrom('listed', 'updated', 'scraped')),
    originalCurrency: fc.constantFrom('USD', 'CNY', 'EUR'),
  })
  .map((fields) => ({ ...fields }));

/** The book's rule, on plain objects: per (game, item, market) a side, newest fetch kept. */
function reference(applied: readonly SideSnapshot[]): Map<string, Map<MarketId, MarketSides>> {
  const held = new Map<string, Map<MarketId, MarketSides>>();
  for (const side of applied) {
    const key = `${side.game}:${side.itemId}`;
    let perMarket = held.get(key);
    if (!perMarket) held.set(key, (perMarket = new Map()));
    let entry = perMarket.get(side.market);
    if (!entry) perMarket.set(side.market, (entry = { market: side.market, ask: null, bid: null }));
    const current = entry[side.side];
    if (!current || current.fetchedAt <= side.fetchedAt) entry[side.side] = side;
  }
  return held;
}

/** The top of book the index reads, derived from the sides as applied. */
function topOf({ ask, bid }: MarketSides) {
  const quoted = (side: SideSnapshot | null) => (side && side.levels.length > 0 ? side : null);
  const [a, b] = [quoted(ask), quoted(bid)];
  const size = (side: SideSnapshot) =>
    side.listingCount ??
    side.levels.reduce((total, level) => total + (level.orders ?? level.quantity), 0);
  return {
    askPrice: a ? a.levels[0]!.price : null,
    bidPrice: b ? b.levels[0]!.price : null,
    askSize: a ? size(a) : 0,
    fetchedAt: a || b ? Math.max(a?.fetchedAt ?? 0, b?.fetchedAt ?? 0) : null,
  };
}

function assertSameAsReference(book: Book, applied: readonly SideSnapshot[]): void {
  const expected = reference(applied);
  for (const game of ['cs2', 'rust'] as const) {
    for (const itemId of ITEMS) {
      const want = [...(expected.get(`${game}:${itemId}`)?.values() ?? [])];
      assert.deepStrictEqual(book.sides(game, itemId), want);
      assert.deepStrictEqual(
        book.bestAsks(game, itemId),
        want.flatMap(({ ask }) =>
          ask && ask.levels.length > 0
            ? [
                {
                  market: ask.market,
                  price: ask.levels[0]!.price,
                  fetchedAt: ask.fetchedAt,
                  originalCurrency: ask.originalCurrency,
                },
              ]
            : [],
        ),
      );
      for (const market of MARKETS) {
        const entry = want.find((e) => e.market === market);
        assert.deepStrictEqual(book.marketSides(game, itemId, market), entry);
        assert.deepStrictEqual(book.marketTop(game, itemId, market), entry && topOf(entry));
      }
    }
    const quoted = ITEMS.filter((id) => expected.has(`${game}:${id}`));
    assert.deepStrictEqual(new Set(book.quotedItemIds(game)), new Set(quoted));
    assert.deepStrictEqual(visitedInSlices(book, game), quotedSidesOf(expected, game));
  }
}

/** `market@fetchedAt` of every quoted side the book visits, three slots at a time, sorted. */
function visitedInSlices(book: Book, game: 'cs2' | 'rust'): string[] {
  const seen: string[] = [];
  for (let from = 0, slots = 1; from < slots; from += 3)
    slots = book.visitQuoted(game, from, from + 3, (market, at) => seen.push(`${market}@${at}`));
  return seen.sort();
}

function quotedSidesOf(expected: ReturnType<typeof reference>, game: string): string[] {
  return [...expected]
    .filter(([key]) => key.startsWith(`${game}:`))
    .flatMap(([, markets]) => [...markets.values()].flatMap(({ ask, bid }) => [ask, bid]))
    .filter((side) => side !== null && side.levels.length > 0)
    .map((side) => `${side!.market}@${side!.fetchedAt}`)
    .sort();
}

describe('packed sides', () => {
  test('read back exactly what was applied, newest fetch per side, in first-quoted order', () => {
    fc.assert(
      fc.property(
        fc.array(fc.array(sideSnapshot, { maxLength: 20, size: 'medium' }), { maxLength: 8 }),
        (batches) => {
          const book = new Book();
          const applied: SideSnapshot[] = [];
          for (const sides of batches) {
            book.apply({ sides, sales: [], listings: [] });
            applied.push(...sides);
            assertSameAsReference(book, applied);
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  test('the packed store reads back the same through its bounded set of recent reads', () => {
    fc.assert(
      fc.property(fc.array(sideSnapshot, { maxLength: 60, size: 'medium' }), (applied) => {
        const store = new SideStore('cs2', 3);
        const cs2 = applied.filter((side) => side.game === 'cs2');
        cs2.forEach((side, i) => {
          store.put(side);
          const expected = reference(cs2.slice(0, i + 1));
          for (const itemId of ITEMS) {
            const want = [...(expected.get(`cs2:${itemId}`)?.values() ?? [])];
            assert.deepStrictEqual(store.sides(itemId), want);
            assert.deepStrictEqual(store.sides(itemId), want);
            const market = want[0]?.market ?? 'csfloat';
            assert.deepStrictEqual(store.marketSides(itemId, market), want[0]);
          }
        });
      }),
      { numRuns: 200 },
    );
  });

  test('an item read again reads back the same side objects until a side changes', () => {
    const book = new Book();
    const side: SideSnapshot = {
      game: 'cs2',
      itemId: 'cs2_a',
      market: 'csfloat',
      side: 'ask',
      levels: [{ price: 1_000, quantity: 2, orders: null }],
      listingCount: 2,
      totalQuantity: 2,
      fetchedAt: T0,
      ingestedAt: T0 + 5,
      sourceUpdatedAt: null,
      sourceTimeKind: null,
      originalCurrency: 'USD',
    };
    book.apply({ sides: [side], sales: [], listings: [] });
    book.sides('cs2', 'cs2_a');
    const first = book.sides('cs2', 'cs2_a')[0]!.ask!;
    assert.deepStrictEqual(first, side);
    assert.equal(book.sides('cs2', 'cs2_a')[0]!.ask, first);
    assert.equal(book.marketSides('cs2', 'cs2_a', 'csfloat')!.ask, first);
    const newer = { ...side, fetchedAt: T0 + 1_000, levels: [] };
    book.apply({ sides: [newer], sales: [], listings: [] });
    const second = book.marketSides('cs2', 'cs2_a', 'csfloat')!.ask!;
    assert.notEqual(second, first);
    assert.deepStrictEqual(second, newer);
  });
});

describe('LevelArena', () => {
  const packable: fc.Arbitrary<Level> = fc
    .record({
      price: fc.integer({ min: 0, max: 0x7fffffff }),
      quantity: fc.integer({ min: 0, max: 0x7fffffff }),
      orders: fc.option(fc.integer({ min: 0, max: 0x7fffffff })),
    })
    .map((fields) => ({ ...fields }));
  const op = fc.record({
    region: fc.integer({ min: 0, max: 7 }),
    levels: fc.option(fc.array(packable, { maxLength: 40, size: 'medium' }), { freq: 3 }),
  });

  test('every region reads back its last write through relocations and compactions', () => {
    fc.assert(
      fc.property(fc.array(op, { minLength: 100, maxLength: 400 }), (ops) => {
        const arena = new LevelArena();
        arena.ensureRegions(8);
        const model = new Map<number, Level[]>();
        for (const { region, levels } of ops) {
          if (levels === null) {
            arena.release(region);
            model.delete(region);
          } else {
            arena.write(region, levels);
            model.set(region, levels);
          }
        }
        for (let region = 0; region < 8; region += 1) {
          assert.deepStrictEqual(arena.read(region), model.get(region) ?? []);
          assert.equal(arena.levelCount(region), model.get(region)?.length ?? 0);
        }
      }),
      { numRuns: 200 },
    );
  });
});

describe('StringTable', () => {
  test('codes read back their string; null is code 0', () => {
    fc.assert(
      fc.property(fc.array(fc.option(fc.string())), (values) => {
        const table = new StringTable();
        const codes = values.map((value) => table.intern(value));
        values.forEach((value, i) => assert.equal(table.at(codes[i]!), value));
        assert.equal(table.intern(null), 0);
      }),
    );
  });
});

describe('RecentReads', () => {
  test('holds a value only for a key read before, within its bounds', () => {
    const recent = new RecentReads<number>(2);
    assert.equal(recent.offer('a', 1), false);
    assert.equal(recent.get('a'), undefined);
    assert.equal(recent.offer('a', 2), true);
    assert.equal(recent.get('a'), 2);
    recent.drop('a');
    assert.equal(recent.get('a'), undefined);
    for (const key of ['b', 'c', 'b', 'c']) recent.offer(key, 3);
    assert.equal(recent.offer('a', 4), true);
    assert.deepStrictEqual(
      ['a', 'b', 'c'].map((key) => recent.get(key)),
      [4, undefined, undefined],
    );
  });
});
