import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { MINUTE } from '../domain/clock.ts';
import { ApiError } from '../domain/errors.ts';
import type { SideSnapshot } from '../domain/quote.ts';
import { DEFAULT_FEE_MODEL } from '../markets/fees.ts';
import {
  DEFAULT_ARBITRAGE_OPTIONS,
  findOpportunities,
  type ArbitrageCandidate,
  type ArbitrageOptions,
} from './arbitrage.ts';
import { ask, bid, book, NOW, withFees, zeroFeeModel } from './test-fixtures.ts';

const candidate = (id: string, ...sides: SideSnapshot[]): ArbitrageCandidate => ({
  item: { id, marketHashName: `Item ${id}`, slug: `item-${id}`, image: `https://img/${id}.png` },
  sides: book(...sides),
});
const options = (overrides: Partial<ArbitrageOptions> = {}): ArbitrageOptions => ({
  ...DEFAULT_ARBITRAGE_OPTIONS,
  ...overrides,
});

describe('findOpportunities', () => {
  test('buys the ask on one market and sells into another market bid, net of fees', () => {
    const result = findOpportunities(
      [candidate('a', ask('csfloat', [[1000, 3]]), bid('buff163', [[1100, 2]]))],
      options(),
      DEFAULT_FEE_MODEL,
      NOW,
    );
    assert.equal(result.totalCandidates, 1);
    assert.equal(result.calculatedAt, '2026-11-01T12:00:00.000Z');
    assert.deepEqual(result.opportunities, [
      {
        canonicalItemId: 'a',
        marketHashName: 'Item a',
        slug: 'item-a',
        imageUrl: 'https://img/a.png',
        buy: {
          market: 'csfloat',
          price: 1000,
          quoteSize: 3,
          updatedAt: '2026-11-01T11:59:00.000Z',
          isStale: false,
        },
        sell: {
          market: 'buff163',
          price: 1100,
          quoteSize: 2,
          updatedAt: '2026-11-01T11:59:00.000Z',
          isStale: false,
        },
        spreadBps: 1000,
        spreadCents: 100,
        // 2 × (1100 − 28 seller fee − 1000) − 0 withdrawal
        estimatedNetCents: 144,
        maxTradableQuantity: 2,
        estimatedNotionalCents: 2000,
        feeNotes:
          'buy csfloat: buyer fee 0 bps; sell buff163: seller fee 250 bps; ' +
          'sell buff163: withdrawal 0 cents per withdrawal (assumed); fee model 2026-11',
        freshness: { buyAgeMs: 60_000, sellAgeMs: 60_000 },
        calculatedAt: '2026-11-01T12:00:00.000Z',
      },
    ]);
  });

  test('the withdrawal fee is charged once per opportunity', () => {
    const model = withFees(zeroFeeModel(), { buff163: { withdrawalFlatCents: 30 } });
    const result = findOpportunities(
      [candidate('a', ask('csfloat', [[1000, 5]]), bid('buff163', [[1100, 5]]))],
      options(),
      model,
      NOW,
    );
    assert.equal(result.opportunities[0]?.estimatedNetCents, 5 * 100 - 30);
  });

  test('never sells into wallet credit or into the same market', () => {
    const sides = [
      ask('csfloat', [[1000, 5]]),
      bid('steamcommunity', [[5000, 5]]),
      bid('csfloat', [[2000, 5]]),
    ];
    const markets = new Set(['csfloat', 'steamcommunity'] as const);
    for (const selection of [null, markets]) {
      const result = findOpportunities(
        [candidate('a', ...sides)],
        options({ markets: selection }),
        zeroFeeModel(),
        NOW,
      );
      assert.deepEqual(result.opportunities, []);
    }
  });

  test('stale legs are paired only with a flag', () => {
    const result = findOpportunities(
      [
        candidate(
          'a',
          ask('csfloat', [[1000, 5]], { ageMs: 31 * MINUTE }),
          bid('buff163', [[1100, 5]]),
        ),
      ],
      options(),
      zeroFeeModel(),
      NOW,
    );
    const found = result.opportunities[0]!;
    assert.equal(found.buy.isStale, true);
    assert.equal(found.sell.isStale, false);
    assert.ok(found.feeNotes.includes('stale_quote:buy:csfloat'));
    assert.deepEqual(found.freshness, { buyAgeMs: 31 * MINUTE, sellAgeMs: 60_000 });
  });

  test('fees that eat the spread leave no opportunity', () => {
    const result = findOpportunities(
      [candidate('a', ask('csfloat', [[1000, 5]]), bid('skinport', [[1100, 5]]))],
      options(),
      DEFAULT_FEE_MODEL,
      NOW,
    );
    assert.deepEqual(result.opportunities, []);
  });

  test('minSpreadBps and minNotionalCents are inclusive lower bounds', () => {
    const sides = [ask('csfloat', [[1000, 2]]), bid('buff163', [[1020, 2]])];
    const run = (overrides: Partial<ArbitrageOptions>) =>
      findOpportunities([candidate('a', ...sides)], options(overrides), zeroFeeModel(), NOW)
        .opportunities.length;
    assert.equal(run({ minSpreadBps: 200, minNotionalCents: 2000 }), 1);
    assert.equal(run({ minSpreadBps: 201 }), 0);
    assert.equal(run({ minNotionalCents: 2001 }), 0);
  });

  test('picks the best pair per item, sorts, and limits', () => {
    const candidates = [
      // net 5 × 50 = 250, spread 500 bps
      candidate(
        'wide-cheap',
        ask('csfloat', [[1000, 5]]),
        bid('buff163', [[1050, 5]]),
        bid('dmarket', [[1030, 5]]),
      ),
      // net 1 × 300 = 300, spread 300 bps
      candidate('big', ask('csfloat', [[10_000, 1]]), bid('buff163', [[10_300, 1]])),
    ];
    const byNet = findOpportunities(candidates, options(), zeroFeeModel(), NOW);
    assert.deepEqual(
      byNet.opportunities.map((o) => [o.canonicalItemId, o.sell.market, o.estimatedNetCents]),
      [
        ['big', 'buff163', 300],
        ['wide-cheap', 'buff163', 250],
      ],
    );
    const bySpread = findOpportunities(
      candidates,
      options({ sort: 'spreadBps' }),
      zeroFeeModel(),
      NOW,
    );
    assert.deepEqual(
      bySpread.opportunities.map((o) => o.canonicalItemId),
      ['wide-cheap', 'big'],
    );
    const limited = findOpportunities(candidates, options({ limit: 1 }), zeroFeeModel(), NOW);
    assert.equal(limited.opportunities.length, 1);
    assert.equal(limited.totalCandidates, 2);
  });

  test('a markets list restricts both legs', () => {
    const sides = [
      ask('csfloat', [[1000, 5]]),
      ask('dmarket', [[900, 5]]),
      bid('buff163', [[1100, 5]]),
    ];
    const markets = new Set(['csfloat', 'buff163'] as const);
    const result = findOpportunities(
      [candidate('a', ...sides)],
      options({ markets }),
      zeroFeeModel(),
      NOW,
    );
    assert.equal(result.opportunities[0]?.buy.market, 'csfloat');
  });

  test('rejects a limit outside 1..100 with a 400 worded as the conventions say', () => {
    for (const [limit, sentence] of [
      [0, 'limit must not be less than 1'],
      [101, 'limit must not exceed 100'],
      [Infinity, 'limit must be an integer number'],
    ] as const) {
      assert.throws(
        () => findOpportunities([], options({ limit }), zeroFeeModel(), NOW),
        (error: unknown) =>
          error instanceof ApiError &&
          error.statusCode === 400 &&
          JSON.stringify(error.messages) === JSON.stringify([sentence]),
      );
    }
  });
});
