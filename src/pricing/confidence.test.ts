import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { MINUTE } from '../domain/clock.ts';
import { agreementScore, coverageScore, freshnessScore, nbboConfidence } from './confidence.ts';
import { ask, bid, NOW } from './test-fixtures.ts';

describe('confidence components', () => {
  const coverage: [number, number][] = [
    [0, 0],
    [1, 1 / 3],
    [2, 2 / 3],
    [3, 1],
    [7, 1],
  ];
  for (const [fresh, expected] of coverage) {
    test(`coverage with ${fresh} fresh markets is ${expected.toFixed(3)}`, () => {
      assert.equal(coverageScore(fresh), expected);
    });
  }

  const freshness: [string, number | null, number | null, number][] = [
    // name, ask age, bid age (null = missing side), expected
    ['both brand new', 0, 0, 1],
    ['both exactly 30 minutes old', 30 * MINUTE, 30 * MINUTE, 0.5],
    ['both 30 minutes + 1 ms old (stale)', 30 * MINUTE + 1, 30 * MINUTE + 1, 0],
    ['ask new, bid missing', 0, null, 0.5],
    ['ask 15 minutes, bid stale', 15 * MINUTE, 31 * MINUTE, 0.375],
  ];
  for (const [name, askAge, bidAge, expected] of freshness) {
    test(`freshness: ${name}`, () => {
      const bestAsk = askAge === null ? null : ask('csfloat', [[1000]], { ageMs: askAge });
      const bestBid = bidAge === null ? null : bid('csfloat', [[900]], { ageMs: bidAge });
      assert.equal(freshnessScore(bestAsk, bestBid, NOW), expected);
    });
  }

  const agreement: [string, number[], number[], number][] = [
    ['one market cannot agree with itself', [1000], [900], 0],
    ['two equal asks agree fully', [1000, 1000], [], 1],
    ['best ask 10% under the median', [900, 1000, 1000], [], 0.5],
    ['best ask 20% or more under the median', [800, 1000, 1000], [], 0],
    ['mean of both sides; best bid 25% over the median', [1000, 1000], [1000, 800, 800], 0.5],
  ];
  for (const [name, askPrices, bidPrices, expected] of agreement) {
    test(`agreement: ${name}`, () => {
      const markets = ['csfloat', 'buff163', 'dmarket'] as const;
      const asks = askPrices.map((price, i) => ask(markets[i]!, [[price]]));
      const bids = bidPrices.map((price, i) => bid(markets[i]!, [[price]]));
      assert.ok(Math.abs(agreementScore(asks, bids) - expected) < 1e-9);
    });
  }
});

describe('nbboConfidence', () => {
  test('is 0 without quotes', () => {
    const input = {
      asks: [],
      bids: [],
      bestAsk: null,
      bestBid: null,
      freshMarketCount: 0,
      now: NOW,
    };
    assert.equal(nbboConfidence(input), 0);
  });

  test('weights coverage 0.4, freshness 0.3, agreement 0.3', () => {
    const asks = [ask('csfloat', [[1000]], { ageMs: 0 }), ask('buff163', [[1000]], { ageMs: 0 })];
    const bids = [bid('csfloat', [[900]], { ageMs: 0 })];
    const input = {
      asks,
      bids,
      bestAsk: asks[0]!,
      bestBid: bids[0]!,
      freshMarketCount: 2,
      now: NOW,
    };
    // 0.4 × 2/3 + 0.3 × 1 + 0.3 × 1 = 0.8667
    assert.equal(nbboConfidence(input), 0.8667);
  });
});
