import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { MINUTE } from '../domain/clock.ts';
import type { SideSnapshot } from '../domain/quote.ts';
import { DEFAULT_FEE_MODEL } from '../markets/fees.ts';
import { computeRecommendation, type Strategy } from './recommendation.ts';
import type { UnstableReason } from './recommendation-rules.ts';
import { ALL_MARKETS } from './top-of-book.ts';
import { ask, bid, book, ITEM, NOW } from './test-fixtures.ts';

const STALE = 31 * MINUTE;
const recommend = (...sides: SideSnapshot[]) =>
  computeRecommendation(ITEM, book(...sides), ALL_MARKETS, DEFAULT_FEE_MODEL, NOW);

/** Two markets on each side, five units each: supported, not thin. */
const asks = (ageMs = 60_000, price = 1000) => [
  ask('csfloat', [[price, 5]], { ageMs }),
  ask('buff163', [[price + 10, 5]], { ageMs }),
];
const bids = (ageMs = 60_000, price = 951) => [
  bid('csfloat', [[price, 5]], { ageMs }),
  bid('buff163', [[price - 10, 5]], { ageMs }),
];

describe('recommendation strategies', () => {
  const cases: [string, SideSnapshot[], Strategy, number | null, UnstableReason[]][] = [
    [
      'nothing quoted',
      [],
      'no_data',
      null,
      ['no_sell_quotes', 'no_buy_orders', 'low_fresh_market_coverage'],
    ],
    [
      'one listing on one market',
      [ask('skinport', [[1000, 1]])],
      'insufficient_support',
      null,
      [
        'no_buy_orders',
        'low_fresh_market_coverage',
        'thin_sell_liquidity',
        'insufficient_independent_support',
      ],
    ],
    ['both sides fresh: midpoint rounds half up', [...asks(), ...bids()], 'midpoint', 976, []],
    [
      'bid side stale',
      [...asks(), ...bids(STALE)],
      'best_ask_fallback',
      1000,
      ['stale_top_of_book'],
    ],
    ['no bids', asks(), 'best_ask_fallback', 1000, ['no_buy_orders']],
    [
      'ask side stale',
      [...asks(STALE), ...bids()],
      'best_bid_fallback',
      951,
      ['stale_top_of_book'],
    ],
    [
      'both stale',
      [...asks(STALE), ...bids(STALE)],
      'stale_midpoint',
      976,
      ['stale_top_of_book', 'low_fresh_market_coverage'],
    ],
    [
      'stale asks only',
      asks(STALE),
      'stale_best_ask_fallback',
      1000,
      ['no_buy_orders', 'stale_top_of_book', 'low_fresh_market_coverage'],
    ],
    [
      'stale bids only',
      bids(STALE),
      'stale_best_bid_fallback',
      951,
      ['no_sell_quotes', 'stale_top_of_book', 'low_fresh_market_coverage'],
    ],
    [
      'bid nets more than the ask costs after fees',
      [...asks(), bid('buff163', [[1100, 5]]), bid('dmarket', [[1090, 5]])],
      'crossed_best_ask',
      1000,
      ['crossed_market'],
    ],
    [
      'crossed by one cent, but fees eat the cross',
      [...asks(), bid('buff163', [[1001, 5]]), bid('dmarket', [[1000, 5]])],
      'midpoint',
      1001,
      ['crossed_market'],
    ],
    ['locked', [...asks(), ...bids(60_000, 1000)], 'midpoint', 1000, []],
  ];
  for (const [name, sides, strategy, price, reasons] of cases) {
    test(`${strategy}: ${name}`, () => {
      const record = recommend(...sides);
      assert.equal(record.strategy, strategy);
      assert.equal(record.suggested_price, price);
      assert.deepEqual(record.unstable_reasons, reasons);
    });
  }
});

describe('unstable reason thresholds', () => {
  const reasonsOf = (...sides: SideSnapshot[]) => recommend(...sides).unstable_reasons;

  test('wide spread: exactly 15% is not wide, one cent more is', () => {
    assert.ok(!reasonsOf(...asks(60_000, 1150), ...bids(60_000, 1000)).includes('wide_spread'));
    assert.ok(reasonsOf(...asks(60_000, 1151), ...bids(60_000, 1000)).includes('wide_spread'));
  });

  test('fresh coverage: one fresh market is low, two is enough', () => {
    const one = [ask('csfloat', [[1000, 5]]), ask('buff163', [[1000, 5]], { ageMs: STALE })];
    assert.ok(reasonsOf(...one).includes('low_fresh_market_coverage'));
    assert.ok(!reasonsOf(...asks()).includes('low_fresh_market_coverage'));
  });

  test('stale top of book: 30 minutes exactly is fresh', () => {
    assert.ok(!reasonsOf(...asks(30 * MINUTE), ...bids(30 * MINUTE)).includes('stale_top_of_book'));
    assert.ok(reasonsOf(...asks(30 * MINUTE + 1), ...bids()).includes('stale_top_of_book'));
  });

  test('thin: fewer than 3 units within 5% of the best price', () => {
    const two = [ask('csfloat', [[1000, 1]]), ask('buff163', [[1050, 1]]), ...bids()];
    assert.ok(reasonsOf(...two).includes('thin_sell_liquidity'));
    const three = [
      ask('csfloat', [
        [1000, 1],
        [1050, 1],
      ]),
      ask('buff163', [[1050, 1]]),
      ...bids(),
    ];
    assert.ok(!reasonsOf(...three).includes('thin_sell_liquidity'));
    const outside = [
      ask('csfloat', [
        [1000, 1],
        [1051, 1],
      ]),
      ask('buff163', [[1051, 1]]),
      ...bids(),
    ];
    assert.ok(reasonsOf(...outside).includes('thin_sell_liquidity'), '1051 is outside the band');
    const thinBids = [...asks(), bid('csfloat', [[951, 1]]), bid('buff163', [[904, 1]])];
    assert.ok(reasonsOf(...thinBids).includes('thin_buy_liquidity'));
  });

  test('independent support: two markets, or one market with 3 units', () => {
    const oneThin = [ask('csfloat', [[1000, 2]]), ...bids()];
    const record = recommend(...oneThin);
    assert.ok(record.unstable_reasons.includes('insufficient_independent_support'));
    assert.equal(record.strategy, 'midpoint', 'the bid side is supported');
    const oneDeep = [ask('csfloat', [[1000, 3]]), ...bids()];
    assert.ok(!reasonsOf(...oneDeep).includes('insufficient_independent_support'));
    const twoSingles = [ask('csfloat', [[1000, 1]]), ask('buff163', [[1040, 1]]), ...bids()];
    assert.ok(!reasonsOf(...twoSingles).includes('insufficient_independent_support'));
  });
});

describe('recommendation record', () => {
  test('snake_case fields, counts and scores', () => {
    const sides = [
      ask('csfloat', [[1000, 5]], { listingCount: 12 }),
      ask('buff163', [[1010, 5]], { listingCount: null }),
      bid('csfloat', [
        [951, 2],
        [940, 3],
      ]),
      bid('buff163', [[941, 5]]),
    ];
    const record = recommend(...sides);
    assert.deepEqual(record.best_ask, {
      market: 'csfloat',
      price: 1000,
      updated_at: '2026-11-01T11:59:00.000Z',
      is_stale: false,
    });
    assert.equal(record.best_bid?.price, 951);
    assert.equal(record.canonical_item_id, ITEM.id);
    assert.equal(record.market_hash_name, ITEM.marketHashName);
    assert.equal(record.spread_bps, 515);
    assert.equal(record.market_count, 2);
    assert.equal(record.fresh_market_count, 2);
    assert.equal(record.listing_count, 13, '12 reported + 1 counted order');
    assert.equal(record.buy_order_count, 3);
    assert.equal(record.total_bid_quantity, 10);
    assert.equal(record.confidence, 1);
    assert.ok(record.liquidity_score > 0 && record.liquidity_score < 1);
    assert.equal(record.calculated_at, '2026-11-01T12:00:00.000Z');
  });

  test('each unstable reason takes 15% off the strategy base', () => {
    assert.equal(recommend(...asks()).confidence, 0.68);
    assert.equal(recommend().confidence, 0);
  });

  test('the best bid is cash-only even when a markets list names the wallet market', () => {
    const sides = book(...asks(), ...bids(), bid('steamcommunity', [[2000, 50]]));
    const selection = { markets: new Set(['csfloat', 'buff163', 'steamcommunity'] as const) };
    const record = computeRecommendation(ITEM, sides, selection, DEFAULT_FEE_MODEL, NOW);
    assert.equal(record.best_bid?.market, 'csfloat');
    assert.equal(record.strategy, 'midpoint');
    assert.equal(record.total_bid_quantity, 10);
  });

  test('a markets list restricts the asks considered', () => {
    const selection = { markets: new Set(['buff163'] as const) };
    const record = computeRecommendation(ITEM, book(...asks()), selection, DEFAULT_FEE_MODEL, NOW);
    assert.equal(record.best_ask?.market, 'buff163');
    assert.equal(record.market_count, 1);
  });
});
