import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { MINUTE } from '../../domain/clock.ts';
import { itemMarketKey } from './price-model.ts';
import { quoteAt, undercutPrice } from './quote.ts';
import { TEST_CATALOGS } from './test-catalog.ts';
import { createSimWorld } from './world.ts';

const START = Date.parse('2026-11-01T00:00:00Z');

describe('underpriced units', () => {
  test('about one book in 200 holds one for 20 minutes, 10-20% under the market', () => {
    let found = 0;
    let samples = 0;
    for (let key = 1; key <= 200; key += 1) {
      for (let period = 0; period < 200; period += 1) {
        const at = START + period * 20 * MINUTE;
        const price = undercutPrice(key * 7919, at, 10_000);
        samples += 1;
        if (price === null) continue;
        found += 1;
        assert.ok(price >= 8_000 && price <= 9_000, `${price}`);
        assert.equal(undercutPrice(key * 7919, at + 19 * MINUTE, 10_000), price);
      }
    }
    assert.ok(found > samples * 0.003 && found < samples * 0.007, `${found} of ${samples}`);
  });

  test('it tops the ask ladder as a single unit, and the same market bids below it', () => {
    const world = createSimWorld({ seed: 3, catalogs: TEST_CATALOGS });
    const item = world.games.cs2!.items[0]!;
    const imKey = itemMarketKey(world, 'buff163', item);
    let at = START;
    while (undercutPrice(imKey, at, 1_000_000) === null) at += 20 * MINUTE;
    const quote = quoteAt(world, 'buff163', item, imKey, at, 7.1);
    const normal = quoteAt(world, 'buff163', item, imKey, at - 20 * MINUTE, 7.1);
    assert.equal(quote.ask[0]!.quantity, 1);
    assert.ok(quote.ask[0]!.price < quote.ask[1]!.price * 0.91);
    assert.ok(quote.ask[0]!.price < normal.ask[0]!.price * 0.95);
    if (quote.bid && quote.bid.length > 0) assert.ok(quote.bid[0]!.price < quote.ask[0]!.price);
  });
});
