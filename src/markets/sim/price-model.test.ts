import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { DAY, HOUR, MINUTE } from '../../domain/clock.ts';
import { MARKET_IDS, type MarketId } from '../../domain/markets.ts';
import { MARKET_INFO } from '../registry.ts';
import { itemMarketKey, simFxRates, topPrices, trueUsdCents, unitsPerUsd } from './price-model.ts';
import { syntheticCatalog, TEST_CATALOGS } from './test-catalog.ts';
import { createSimWorld } from './world.ts';

const START = Date.parse('2026-11-01T00:00:00Z');
const world = createSimWorld({ seed: 11, catalogs: TEST_CATALOGS });
const items = world.games.cs2!.items;

describe('price model', () => {
  test('true prices wander around the reference price, smoothly', () => {
    for (const item of items) {
      let low = Infinity;
      let high = 0;
      for (let hour = 0; hour < 60 * 24; hour += 1) {
        const at = START + hour * HOUR;
        const price = trueUsdCents(world, item, at);
        low = Math.min(low, price);
        high = Math.max(high, price);
        const nextMinute = trueUsdCents(world, item, at + MINUTE);
        assert.ok(
          Math.abs(nextMinute / price - 1) < 0.005,
          'a minute moves the price by less than 0.5%',
        );
      }
      assert.ok(low > item.refCents * 0.6 && high < item.refCents * 1.6, item.name);
      assert.ok(high / low > 1.03, `${item.name} moves`);
    }
  });

  test('market levels: Buff cheapest of the big markets, Steam about 15-25% dearer', () => {
    let buffBelowSteam = 0;
    let ratios = 0;
    let samples = 0;
    for (const item of items) {
      for (let day = 0; day < 30; day += 1) {
        const at = START + day * DAY;
        const buff = topPrices(
          world,
          'buff163',
          item,
          itemMarketKey(world, 'buff163', item),
          at,
        ).askUsdCents;
        const steam = topPrices(
          world,
          'steamcommunity',
          item,
          itemMarketKey(world, 'steamcommunity', item),
          at,
        ).askUsdCents;
        if (buff < steam) buffBelowSteam += 1;
        ratios += steam / buff;
        samples += 1;
      }
    }
    assert.equal(buffBelowSteam, samples);
    const meanRatio = ratios / samples;
    assert.ok(meanRatio > 1.15 && meanRatio < 1.3, `steam/buff ${meanRatio}`);
  });

  test('cash bids occasionally cross another market ask, but rarely', () => {
    const big = createSimWorld({ seed: 11, catalogs: { cs2: { items: syntheticCatalog(300) } } });
    const cashBidMarkets = MARKET_IDS.filter(
      (id) => MARKET_INFO[id].capabilities.bids && id !== 'steamcommunity',
    );
    const cs2Markets = MARKET_IDS.filter((id) => MARKET_INFO[id].games.includes('cs2'));
    let crossed = 0;
    let samples = 0;
    for (const item of big.games.cs2!.items) {
      for (let hour = 0; hour < 48; hour += 6) {
        const at = START + hour * HOUR;
        const tops = (id: MarketId) => topPrices(big, id, item, itemMarketKey(big, id, item), at);
        const bestBid = Math.max(...cashBidMarkets.map((id) => tops(id).bidUsdCents!));
        const bestAsk = Math.min(...cs2Markets.map((id) => tops(id).askUsdCents));
        if (bestBid > bestAsk) crossed += 1;
        samples += 1;
      }
    }
    assert.ok(crossed > 0 && crossed < samples * 0.2, `${crossed} of ${samples} crossed`);
  });

  test('world FX rates stay near CNY 7.1 and EUR 0.92 per USD', () => {
    for (let day = 0; day < 90; day += 1) {
      const at = START + day * DAY;
      assert.ok(Math.abs(unitsPerUsd(world.seed, 'CNY', at) / 7.1 - 1) < 0.011);
      assert.ok(Math.abs(unitsPerUsd(world.seed, 'EUR', at) / 0.92 - 1) < 0.011);
    }
    assert.equal(unitsPerUsd(world.seed, 'USD', START), 1);
    const rates = simFxRates(11, START);
    assert.equal(rates.USD, 1_000_000);
    assert.ok(Math.abs(rates.EUR! - 1_086_957) < 15_000 && Math.abs(rates.CNY! - 140_845) < 2_000);
    assert.equal(rates.CNY, Math.round(1_000_000 / unitsPerUsd(world.seed, 'CNY', START)));
  });
});
