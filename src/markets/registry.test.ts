import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { MINUTE } from '../domain/clock.ts';
import { STALE_AFTER_MS } from '../domain/freshness.ts';
import { MARKET_IDS, MARKETS_BY_GAME } from '../domain/markets.ts';
import { MARKET_INFO, marketInfo } from './registry.ts';

const BID_MARKETS = [
  'steamcommunity',
  'buff163',
  'csfloat',
  'dmarket',
  'marketcsgo',
  'waxpeer',
  'rusttm',
];

describe('market registry', () => {
  test('has one entry per market id, keyed by its own id', () => {
    assert.deepEqual(Object.keys(MARKET_INFO).sort(), [...MARKET_IDS].sort());
    for (const id of MARKET_IDS) assert.equal(marketInfo(id).id, id);
  });

  test('games follow MARKETS_BY_GAME', () => {
    for (const id of MARKET_IDS) {
      const expected = (['cs2', 'rust'] as const).filter((game) =>
        MARKETS_BY_GAME[game].includes(id),
      );
      assert.deepEqual([...MARKET_INFO[id].games], expected, id);
    }
  });

  test('asks everywhere, bids only on the bid markets', () => {
    for (const id of MARKET_IDS) {
      const caps = MARKET_INFO[id].capabilities;
      assert.equal(caps.asks, true, id);
      assert.equal(caps.bids, BID_MARKETS.includes(id), id);
      if (caps.floats) assert.equal(caps.listings, true, id);
    }
  });

  test('native units as the reference table gives them', () => {
    const units = (id: keyof typeof MARKET_INFO) => [
      MARKET_INFO[id].currency,
      MARKET_INFO[id].scale,
    ];
    assert.deepEqual(units('buff163'), ['CNY', 100]);
    assert.deepEqual(units('skinport'), ['EUR', 100]);
    for (const id of ['waxpeer', 'marketcsgo', 'rusttm'] as const) {
      assert.deepEqual(units(id), ['USD', 1000], id);
    }
    for (const id of ['csfloat', 'dmarket', 'steamcommunity', 'tradeit-store'] as const) {
      assert.deepEqual(units(id), ['USD', 100], id);
    }
  });

  test('cadences are realistic and leave room before the stale window', () => {
    for (const id of MARKET_IDS) {
      const cadence = MARKET_INFO[id].cadenceMs;
      assert.ok(cadence >= MINUTE && cadence <= STALE_AFTER_MS - 10 * MINUTE, id);
    }
    assert.ok(MARKET_INFO.csfloat.cadenceMs < MARKET_INFO.buff163.cadenceMs);
    assert.ok(MARKET_INFO.buff163.cadenceMs < MARKET_INFO.skinport.cadenceMs);
  });
});
