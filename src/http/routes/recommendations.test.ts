import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { MINUTE } from '../../domain/clock.ts';
import { auth, buildHarness, KEYS } from '../test-support.ts';

const path = (name: string, query = '') =>
  `/v1/recommendations/${encodeURIComponent(name)}${query}`;

async function quoted() {
  const harness = await buildHarness();
  const at = harness.clock.now();
  harness.quote('ask', 'cs2-redline-ft', 'csfloat', [1500], at - MINUTE);
  harness.quote('ask', 'cs2-redline-ft', 'skinport', [1510], at - MINUTE);
  harness.quote('bid', 'cs2-redline-ft', 'csfloat', [1400], at - MINUTE);
  harness.quote('bid', 'cs2-redline-ft', 'buff163', [1390], at - MINUTE);
  harness.quote('bid', 'cs2-redline-ft', 'steamcommunity', [1480], at - MINUTE);
  return harness;
}

describe('200', () => {
  test('a midpoint recommendation in snake_case by name or id', async () => {
    const { app } = await quoted();
    for (const name of ['AK-47 | Redline (Field-Tested)', 'cs2-redline-ft']) {
      const response = await app.inject({ url: path(name), headers: auth(KEYS.developer) });
      assert.equal(response.statusCode, 200);
      const body = response.json();
      assert.deepEqual(Object.keys(body), [
        'canonical_item_id',
        'market_hash_name',
        'suggested_price',
        'strategy',
        'confidence',
        'liquidity_score',
        'unstable_reasons',
        'best_ask',
        'best_bid',
        'spread_bps',
        'market_count',
        'fresh_market_count',
        'listing_count',
        'buy_order_count',
        'total_bid_quantity',
        'calculated_at',
      ]);
      assert.deepEqual([body.strategy, body.suggested_price], ['midpoint', 1450]);
      assert.deepEqual(body.best_bid, {
        market: 'csfloat',
        price: 1400,
        updated_at: '2026-11-01T11:59:00.000Z',
        is_stale: false,
      });
      assert.equal(body.spread_bps, 714);
      assert.ok(Array.isArray(body.unstable_reasons));
      assert.ok(body.confidence > 0 && body.confidence <= 1);
    }
  });

  test('the best bid stays cash-only even with an explicit markets list', async () => {
    const { app } = await quoted();
    const body = (
      await app.inject({
        url: path('cs2-redline-ft', '?markets=csfloat,steamcommunity'),
        headers: auth(KEYS.developer),
      })
    ).json();
    assert.equal(body.best_bid.market, 'csfloat');
    assert.equal(body.buy_order_count, 1, 'buff163 is outside the selection');
  });

  test('suggested_price null is a 200: no_data for an item without quotes', async () => {
    const { app } = await quoted();
    const response = await app.inject({
      url: path('AWP | Asiimov (Field-Tested)'),
      headers: auth(KEYS.developer),
    });
    assert.equal(response.statusCode, 200);
    const body = response.json();
    assert.deepEqual(
      [body.suggested_price, body.strategy, body.best_ask, body.best_bid, body.spread_bps],
      [null, 'no_data', null, null, null],
    );
    assert.deepEqual(body.unstable_reasons.slice(0, 2), ['no_sell_quotes', 'no_buy_orders']);
  });

  test('stale inputs give a stale_ strategy', async () => {
    const { app, clock } = await quoted();
    clock.advance(31 * MINUTE);
    const body = (
      await app.inject({ url: path('cs2-redline-ft'), headers: auth(KEYS.pro) })
    ).json();
    assert.equal(body.strategy, 'stale_midpoint');
    assert.ok(body.unstable_reasons.includes('stale_top_of_book'));
  });
});

describe('400 / 404 / 401', () => {
  test('unknown markets are 400', async () => {
    const { app } = await quoted();
    const response = await app.inject({
      url: path('cs2-redline-ft', '?markets=rusttm'),
      headers: auth(KEYS.developer),
    });
    assert.equal(response.statusCode, 400);
    assert.match(response.json().message[0], /unknown market ids for cs2: rusttm/);
  });

  test('an unknown item is 404; no key is 401', async () => {
    const { app } = await quoted();
    const unknown = await app.inject({ url: path('No Such Item'), headers: auth(KEYS.developer) });
    assert.equal(unknown.statusCode, 404);
    assert.equal(unknown.json().message, 'Not found');
    assert.equal((await app.inject({ url: path('cs2-redline-ft') })).statusCode, 401);
  });

  test('there is no /v2 form', async () => {
    const { app } = await quoted();
    const response = await app.inject({
      url: '/v2/recommendations/cs2-redline-ft?game=cs2',
      headers: auth(KEYS.developer),
    });
    assert.equal(response.statusCode, 404);
  });
});
