import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { DAY, HOUR, MINUTE } from '../../domain/clock.ts';
import { MARKET_INFO } from '../registry.ts';
import { itemMarketKey, unitsPerUsd } from './price-model.ts';
import { quoteAt } from './quote.ts';
import { lastChangeAt, meanChangeIntervalMs } from './quote-changes.ts';
import { TEST_CATALOGS } from './test-catalog.ts';
import { createSimWorld } from './world.ts';

const START = Date.parse('2026-11-01T00:00:00Z');

/** Changes seen by polls every `everyMs` over `spanMs`, for keys 1..`keys`. */
function changesSeen(popularity: number, everyMs: number, spanMs: number, keys = 200): number {
  let changes = 0;
  for (let key = 1; key <= keys; key += 1) {
    let last = lastChangeAt(key * 7919, popularity, START);
    for (let at = START + everyMs; at <= START + spanMs; at += everyMs) {
      const now = lastChangeAt(key * 7919, popularity, at);
      if (now !== last) changes += 1;
      last = now;
    }
  }
  return changes / keys;
}

describe('quote changes', () => {
  test('the mean interval runs from 3 minutes (popular) to 12 hours (long tail)', () => {
    assert.equal(meanChangeIntervalMs(1), 3 * MINUTE);
    assert.equal(meanChangeIntervalMs(0), 12 * HOUR);
    assert.ok(meanChangeIntervalMs(0.5) > 30 * MINUTE && meanChangeIntervalMs(0.5) < HOUR);
  });

  test('the last change is at or before the time, and stays put until the next one', () => {
    for (let key = 1; key <= 50; key += 1) {
      for (let at = START; at < START + DAY; at += 37 * MINUTE) {
        const changed = lastChangeAt(key, 0.4, at);
        assert.ok(changed <= at);
        assert.equal(lastChangeAt(key, 0.4, changed), changed);
        if (changed < at) assert.equal(lastChangeAt(key, 0.4, at - 1), changed);
      }
    }
  });

  test('a popular quote changes every few minutes, a long-tail one a few times a day', () => {
    const popular = changesSeen(1, MINUTE, DAY);
    assert.ok(popular > 300 && popular < 600, `${popular} changes a day at popularity 1`);
    const tail = changesSeen(0, 5 * MINUTE, 4 * DAY) / 4;
    assert.ok(tail > 1 && tail < 3.5, `${tail} changes a day at popularity 0`);
  });

  test('between two changes the whole quote is the same, whatever the exchange rate did', () => {
    const world = createSimWorld({ seed: 5, catalogs: TEST_CATALOGS });
    const item = world.games.cs2!.items.at(-1)!;
    const imKey = itemMarketKey(world, 'buff163', item);
    const { currency, scale } = MARKET_INFO.buff163;
    const rateAt = (at: number) => (unitsPerUsd(world.seed, currency, at) * scale) / 100;
    const quoteAtTime = (at: number) => quoteAt(world, 'buff163', item, imKey, at, rateAt(at));
    let compared = 0;
    for (let day = 0; day < 20; day += 1) {
      const changed = lastChangeAt(imKey, item.popularity, START + day * DAY);
      const first = quoteAtTime(changed);
      const sameUndercutPeriod = (at: number) =>
        Math.floor(at / (20 * MINUTE)) === Math.floor(changed / (20 * MINUTE));
      for (let at = changed + MINUTE; at < changed + 2 * HOUR; at += 7 * MINUTE) {
        if (lastChangeAt(imKey, item.popularity, at) !== changed || !sameUndercutPeriod(at)) break;
        assert.notEqual(rateAt(at), rateAt(changed));
        assert.deepEqual(quoteAtTime(at), first);
        compared += 1;
      }
    }
    assert.ok(compared > 10, `${compared} held quotes compared`);
  });
});
