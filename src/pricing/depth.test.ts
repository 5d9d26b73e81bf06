import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { MINUTE } from '../domain/clock.ts';
import { ApiError } from '../domain/errors.ts';
import { computeDepth } from './depth.ts';
import { ALL_MARKETS } from './top-of-book.ts';
import { ask, bid, book, ITEM, NOW } from './test-fixtures.ts';

describe('computeDepth', () => {
  const sides = book(
    ask('csfloat', [
      [1000, 2, 2],
      [1010, 1, 1],
      [1030, 4, 3],
    ]),
    ask(
      'buff163',
      [
        [1000, 3, null],
        [1020, 1, null],
      ],
      { ageMs: 31 * MINUTE },
    ),
    ask('skinport', [[1005, 40, null]]),
    bid('csfloat', [
      [950, 1, 1],
      [940, 2, 2],
    ]),
    bid('buff163', [[960, 5, 4]]),
    bid('steamcommunity', [[990, 10, 10]]),
  );

  test('merges asks cheapest first with per-market quotes', () => {
    const depth = computeDepth(ITEM, sides, ALL_MARKETS, 10, NOW);
    assert.deepEqual(
      depth.asks.map((level) => [
        level.rank,
        level.price,
        level.quantity,
        level.cumulativeQuantity,
      ]),
      [
        [1, 1000, 5, 5],
        [2, 1005, 40, 45],
        [3, 1010, 1, 46],
        [4, 1020, 1, 47],
        [5, 1030, 4, 51],
      ],
    );
    const top = depth.asks[0]!;
    assert.equal(top.marketCount, 2);
    assert.equal(top.ordersCount, 2, 'sum of the known order counts');
    assert.equal(top.updatedAt, '2026-11-01T11:59:00.000Z', 'latest fetch at the price');
    assert.equal(top.isStale, false, 'one fresh quote keeps the level fresh');
    assert.deepEqual(top.quotes, [
      {
        market: 'buff163',
        level: 1,
        price: 1000,
        quantity: 3,
        ordersCount: null,
        updatedAt: '2026-11-01T11:29:00.000Z',
        isStale: true,
      },
      {
        market: 'csfloat',
        level: 1,
        price: 1000,
        quantity: 2,
        ordersCount: 2,
        updatedAt: '2026-11-01T11:59:00.000Z',
        isStale: false,
      },
    ]);
    const buffOnly = depth.asks[3]!;
    assert.equal(buffOnly.isStale, true);
    assert.equal(buffOnly.ordersCount, null);
    assert.equal(buffOnly.quotes[0]?.level, 2);
  });

  test('a top-of-book-only market contributes one level', () => {
    const depth = computeDepth(ITEM, sides, ALL_MARKETS, 10, NOW);
    const skinport = depth.asks
      .flatMap((level) => level.quotes)
      .filter((q) => q.market === 'skinport');
    assert.equal(skinport.length, 1);
  });

  test('bids highest first under the best-bid rule', () => {
    const cashOnly = computeDepth(ITEM, sides, ALL_MARKETS, 10, NOW);
    assert.deepEqual(
      cashOnly.bids.map((level) => [level.price, level.cumulativeQuantity]),
      [
        [960, 5],
        [950, 6],
        [940, 8],
      ],
    );
    assert.equal(cashOnly.marketCount, 3);
    const listed = computeDepth(
      ITEM,
      sides,
      { markets: new Set(['steamcommunity', 'csfloat'] as const) },
      10,
      NOW,
    );
    assert.deepEqual(
      listed.bids.map((level) => level.price),
      [990, 950, 940],
    );
    assert.deepEqual(
      listed.asks.map((level) => level.price),
      [1000, 1010, 1030],
    );
    assert.equal(listed.marketCount, 2);
  });

  test('keeps the first `depth` merged levels per side', () => {
    const depth = computeDepth(ITEM, sides, ALL_MARKETS, 2, NOW);
    assert.equal(depth.depth, 2);
    assert.deepEqual(
      depth.asks.map((level) => level.price),
      [1000, 1005],
    );
    assert.deepEqual(
      depth.bids.map((level) => level.price),
      [960, 950],
    );
  });

  test('top-of-book spread uses the bid as divisor', () => {
    const depth = computeDepth(ITEM, sides, ALL_MARKETS, 10, NOW);
    assert.equal(depth.spreadBps, 417);
    assert.equal(depth.locked, false);
    assert.equal(depth.crossed, false);
    assert.equal(depth.calculatedAt, '2026-11-01T12:00:00.000Z');
  });

  test('locked and crossed top of book', () => {
    const locked = computeDepth(
      ITEM,
      book(ask('csfloat', [[1000]]), bid('buff163', [[1000]])),
      ALL_MARKETS,
      5,
      NOW,
    );
    assert.deepEqual([locked.spreadBps, locked.locked, locked.crossed], [0, true, false]);
    const crossed = computeDepth(
      ITEM,
      book(ask('csfloat', [[1000]]), bid('buff163', [[1001]])),
      ALL_MARKETS,
      5,
      NOW,
    );
    assert.deepEqual([crossed.spreadBps, crossed.locked, crossed.crossed], [-10, false, true]);
  });

  test('empty book', () => {
    const depth = computeDepth(ITEM, [], ALL_MARKETS, 10, NOW);
    assert.deepEqual(
      [depth.asks, depth.bids, depth.spreadBps, depth.marketCount],
      [[], [], null, 0],
    );
  });

  for (const [bad, sentence] of [
    [0, 'depth must not be less than 1'],
    [51, 'depth must not exceed 50'],
    [2.5, 'depth must be an integer number'],
    [Infinity, 'depth must be an integer number'],
    [NaN, 'depth must be an integer number'],
  ] as const) {
    test(`depth ${bad} is rejected with a 400 in the conventions' wording`, () => {
      assert.throws(
        () => computeDepth(ITEM, sides, ALL_MARKETS, bad, NOW),
        (error: unknown) =>
          error instanceof ApiError &&
          error.statusCode === 400 &&
          JSON.stringify(error.messages) === JSON.stringify([sentence]),
      );
    });
  }

  test('depth 1 and 50 are accepted', () => {
    assert.equal(computeDepth(ITEM, sides, ALL_MARKETS, 1, NOW).asks.length, 1);
    assert.equal(computeDepth(ITEM, sides, ALL_MARKETS, 50, NOW).asks.length, 5);
  });
});

describe('ordersCount', () => {
  test('an integer wherever a source counts orders: the sum of the counts given, else null', () => {
    const level = fc.tuple(
      fc.integer({ min: 1000, max: 1004 }),
      fc.integer({ min: 1, max: 9 }),
      fc.option(fc.integer({ min: 1, max: 9 })),
    );
    const ladder = fc.array(level, { minLength: 1, maxLength: 4 });
    fc.assert(
      fc.property(ladder, ladder, ladder, (csfloat, buff, dmarket) => {
        const sides = book(ask('csfloat', csfloat), ask('buff163', buff), ask('dmarket', dmarket));
        const depth = computeDepth(ITEM, sides, ALL_MARKETS, 50, NOW);
        for (const merged of depth.asks) {
          const counts = merged.quotes.map((quote) => quote.ordersCount);
          for (const count of counts) assert.ok(count === null || Number.isSafeInteger(count));
          const known = counts.filter((count): count is number => count !== null);
          const sum = known.length === 0 ? null : known.reduce((total, count) => total + count, 0);
          assert.equal(merged.ordersCount, sum);
        }
      }),
    );
  });
});
