import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { MINUTE } from '../domain/clock.ts';
import { DEFAULT_FEE_MODEL } from '../markets/fees.ts';
import { computeNbbo, spreadState } from './nbbo.ts';
import { ALL_MARKETS } from './top-of-book.ts';
import { ask, bid, book, ITEM, NOW, zeroFeeModel } from './test-fixtures.ts';

describe('spreadState', () => {
  const cases: [string, number | null, number | null, number | null, boolean, boolean][] = [
    // name, ask, bid, spreadBps, locked, crossed
    ['normal: 100 over a 900 bid', 1000, 900, 1111, false, false],
    ['locked', 1000, 1000, 0, true, false],
    ['crossed by one cent', 1000, 1001, -10, false, true],
    ['ask one cent above bid', 1001, 1000, 10, false, false],
    ['no bid', 1000, null, null, false, false],
    ['no ask', null, 900, null, false, false],
    ['zero bid has no spread', 1000, 0, null, false, false],
  ];
  for (const [name, askPrice, bidPrice, spread, locked, crossed] of cases) {
    test(name, () => {
      assert.deepEqual(spreadState(askPrice, bidPrice), { spreadBps: spread, locked, crossed });
    });
  }
});

describe('computeNbbo', () => {
  const zero = zeroFeeModel();

  test('top of book, counts and timestamps', () => {
    const sides = book(
      ask('csfloat', [
        [1000, 2],
        [1010, 1],
      ]),
      ask('buff163', [[1020, 5]], { ageMs: 40 * MINUTE }),
      bid('buff163', [[950, 3]], { ageMs: 40 * MINUTE }),
      bid('dmarket', [[940, 1]]),
    );
    const nbbo = computeNbbo(ITEM, sides, ALL_MARKETS, zero, NOW);
    assert.equal(nbbo.marketHashName, ITEM.marketHashName);
    assert.equal(nbbo.canonicalItemId, ITEM.id);
    assert.deepEqual(nbbo.bestAsk, {
      market: 'csfloat',
      price: 1000,
      updatedAt: '2026-11-01T11:59:00.000Z',
      isStale: false,
    });
    assert.deepEqual(nbbo.bestBid, {
      market: 'buff163',
      price: 950,
      updatedAt: '2026-11-01T11:20:00.000Z',
      isStale: true,
    });
    assert.equal(nbbo.spreadBps, 526);
    assert.equal(nbbo.marketCount, 3);
    assert.equal(nbbo.freshMarketCount, 2);
    assert.equal(nbbo.locked, false);
    assert.equal(nbbo.crossed, false);
    assert.equal(nbbo.calculatedAt, '2026-11-01T12:00:00.000Z');
    assert.ok(nbbo.confidence > 0 && nbbo.confidence <= 1);
  });

  test('staleness boundary: exactly 30 minutes is fresh, 30 min + 1 ms is stale', () => {
    const at = (ageMs: number) =>
      computeNbbo(ITEM, book(ask('csfloat', [[1000]], { ageMs })), ALL_MARKETS, zero, NOW);
    assert.equal(at(30 * MINUTE).bestAsk?.isStale, false);
    assert.equal(at(30 * MINUTE).freshMarketCount, 1);
    assert.equal(at(30 * MINUTE + 1).bestAsk?.isStale, true);
    assert.equal(at(30 * MINUTE + 1).freshMarketCount, 0);
  });

  test('best-bid rule: wallet bids only count when a markets list names them', () => {
    const sides = book(
      ask('csfloat', [[1000]]),
      bid('steamcommunity', [[1200]]),
      bid('buff163', [[900]]),
    );
    const cashOnly = computeNbbo(ITEM, sides, ALL_MARKETS, zero, NOW);
    assert.equal(cashOnly.bestBid?.market, 'buff163');
    assert.equal(cashOnly.marketCount, 2);
    const listed = { markets: new Set(['csfloat', 'steamcommunity'] as const) };
    const verbatim = computeNbbo(ITEM, sides, listed, zero, NOW);
    assert.equal(verbatim.bestBid?.market, 'steamcommunity');
    assert.equal(verbatim.crossed, true);
    assert.equal(verbatim.spreadBps, -1667);
  });

  test('a markets list filters asks too', () => {
    const sides = book(ask('csfloat', [[1000]]), ask('buff163', [[900]]));
    const nbbo = computeNbbo(ITEM, sides, { markets: new Set(['csfloat'] as const) }, zero, NOW);
    assert.equal(nbbo.bestAsk?.price, 1000);
    assert.equal(nbbo.marketCount, 1);
  });

  test('no quotes: nulls, zero confidence, executionAdjusted null', () => {
    const nbbo = computeNbbo(ITEM, [], ALL_MARKETS, zero, NOW);
    assert.equal(nbbo.bestAsk, null);
    assert.equal(nbbo.bestBid, null);
    assert.equal(nbbo.spreadBps, null);
    assert.equal(nbbo.confidence, 0);
    assert.equal(nbbo.executionAdjusted, null);
  });

  test('only an excluded wallet bid counts as no quotes', () => {
    const nbbo = computeNbbo(ITEM, book(bid('steamcommunity', [[900]])), ALL_MARKETS, zero, NOW);
    assert.equal(nbbo.executionAdjusted, null);
  });

  test('execution-adjusted view uses fees and may pick other markets', () => {
    const sides = book(
      ask('csfloat', [[1000, 2], [1001]]),
      bid('skinport', [[1000, 1], [990]]),
      bid('csfloat', [[950, 1], [940]]),
    );
    const nbbo = computeNbbo(ITEM, sides, ALL_MARKETS, DEFAULT_FEE_MODEL, NOW);
    assert.equal(nbbo.locked, true, 'raw book is locked at 1000');
    const adjusted = nbbo.executionAdjusted!;
    assert.equal(adjusted.bestAsk?.price, 1000);
    assert.deepEqual(
      { ...adjusted.bestBid, reasons: undefined },
      {
        market: 'csfloat',
        price: 931,
        rawPrice: 950,
        appliedFeeBps: 200,
        withdrawalFlatUsdCents: 0,
        executability: 0.9,
        updatedAt: '2026-11-01T11:59:00.000Z',
        isStale: false,
        reasons: undefined,
      },
    );
    assert.equal(adjusted.spreadBps, 741);
    assert.equal(adjusted.locked, false);
    assert.equal(adjusted.crossed, false);
    assert.equal(adjusted.feeModelVersion, '2026-11');
    assert.deepEqual(adjusted.reasons, ['assumed_fees']);
    assert.equal(
      adjusted.executableConfidence,
      Math.round(nbbo.confidence * 0.95 * 10_000) / 10_000,
    );
  });

  test('one-sided book reports the missing side', () => {
    const nbbo = computeNbbo(ITEM, book(ask('csfloat', [[1000, 1, null]])), ALL_MARKETS, zero, NOW);
    assert.equal(nbbo.executionAdjusted?.bestBid, null);
    assert.equal(nbbo.executionAdjusted?.spreadBps, null);
    assert.deepEqual(nbbo.executionAdjusted?.reasons, [
      'unknown_executable_depth',
      'no_bid_quotes',
    ]);
  });
});
