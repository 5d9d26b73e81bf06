import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { HOUR, MINUTE } from '../../domain/clock.ts';
import { MARKETS_BY_GAME } from '../../domain/markets.ts';
import { auth, buildHarness, KEYS, T0 } from '../test-support.ts';
import { historyHarness, quote, REDLINE } from './history-test-support.ts';

const url = (query = '') =>
  `/v1/market-analytics/${encodeURIComponent(REDLINE)}${query ? `?${query}` : ''}`;

async function prepared() {
  const harness = await historyHarness();
  const { write, book } = harness;
  const recent = [
    quote('ask', 'skinport', 1200, T0 - 3 * HOUR, 10),
    quote('ask', 'skinport', 1301, T0 - 2 * HOUR, 13),
    quote('bid', 'skinport', 1100, T0 - 2 * HOUR, 4),
    quote('ask', 'skinport', 1250, T0 - 30 * HOUR, 99),
  ];
  for (const side of recent) await write([side]);
  const current = [
    quote('ask', 'skinport', 1290, T0 - 40 * MINUTE, 12),
    quote('bid', 'skinport', 1300, T0 - MINUTE, 5),
  ];
  const stats = (window: '24h' | '7d', volume: number, fetchedAt: number) => ({
    game: 'cs2' as const,
    itemId: current[0]!.itemId,
    market: 'skinport' as const,
    window,
    volume,
    minPrice: volume > 0 ? 1150 : null,
    maxPrice: volume > 0 ? 1420 : null,
    avgPrice: volume > 0 ? 1263 : null,
    medianPrice: volume > 0 ? 1250 : null,
    fetchedAt,
    ingestedAt: fetchedAt,
    originalCurrency: 'EUR',
  });
  const salesStats = [stats('24h', 38, T0 - 5 * MINUTE), stats('7d', 0, T0 - 31 * MINUTE)];
  book.apply({ sides: current, sales: [], listings: [], salesStats });
  return harness;
}

describe('200', () => {
  test('a row per market: current quotes from the book, rolling stats over the window', async () => {
    const { app } = await prepared();
    const response = await app.inject({ url: url(), headers: auth(KEYS.pro) });
    assert.equal(response.statusCode, 200);
    const body = response.json();
    assert.deepEqual(Object.keys(body), [
      'canonical_item_id',
      'market_hash_name',
      'window_hours',
      'markets',
      'calculated_at',
    ]);
    assert.equal(body.window_hours, 24);
    assert.deepEqual(
      body.markets.map((row: { market: string }) => row.market),
      MARKETS_BY_GAME.cs2,
    );
    const skinport = body.markets.find((row: { market: string }) => row.market === 'skinport');
    assert.deepEqual(skinport, {
      market: 'skinport',
      current_ask: 1290,
      current_bid: 1300,
      spread_bps: -77,
      ask_is_stale: true,
      bid_is_stale: false,
      current_listing_count: 12,
      current_buy_order_count: 5,
      current_bid_quantity: 6,
      sell_avg_price: 1250.5,
      sell_min_price: 1200,
      sell_max_price: 1301,
      sell_avg_listing_count: 11.5,
      buy_avg_price: 1100,
      buy_max_price: 1100,
      buy_avg_order_count: 4,
      buy_avg_total_quantity: 5,
      sales_stats: {
        '24h': {
          volume: 38,
          min_price: 1150,
          max_price: 1420,
          avg_price: 1263,
          median_price: 1250,
          fetched_at: new Date(T0 - 5 * MINUTE).toISOString(),
          is_stale: false,
        },
        '7d': {
          volume: 0,
          min_price: null,
          max_price: null,
          avg_price: null,
          median_price: null,
          fetched_at: new Date(T0 - 31 * MINUTE).toISOString(),
          is_stale: true,
        },
      },
    });
    const quiet = body.markets.find((row: { market: string }) => row.market === 'buff163');
    const { market, ...rest } = quiet;
    assert.equal(market, 'buff163');
    assert.ok(
      Object.values(rest).every((value) => value === null),
      'no activity: all nulls',
    );
  });

  test('windowHours widens the window; markets restricts the rows', async () => {
    const { app } = await prepared();
    const response = await app.inject({
      url: url('windowHours=48&markets=skinport,csfloat'),
      headers: auth(KEYS.pro),
    });
    const body = response.json();
    assert.deepEqual(
      body.markets.map((row: { market: string }) => row.market),
      ['skinport', 'csfloat'],
    );
    assert.deepEqual(
      [body.markets[0].sell_max_price, body.markets[0].sell_avg_listing_count],
      [1301, 40.67],
    );
  });
});

describe('errors', () => {
  test('windowHours outside 1-168 is 400', async () => {
    const { app } = await prepared();
    for (const hours of ['0', '169', 'abc']) {
      const response = await app.inject({
        url: url(`windowHours=${hours}`),
        headers: auth(KEYS.pro),
      });
      assert.equal(response.statusCode, 400, hours);
    }
  });

  test('Developer is 403, an unknown item 404, no history store 503', async () => {
    const { app } = await prepared();
    assert.equal((await app.inject({ url: url(), headers: auth(KEYS.developer) })).statusCode, 403);
    const unknown = await app.inject({ url: '/v1/market-analytics/nope', headers: auth(KEYS.pro) });
    assert.equal(unknown.statusCode, 404);
    const bare = await buildHarness();
    assert.equal((await bare.app.inject({ url: url(), headers: auth(KEYS.pro) })).statusCode, 503);
  });
});
