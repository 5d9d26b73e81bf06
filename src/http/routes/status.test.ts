import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { DAY, MINUTE } from '../../domain/clock.ts';
import type { MarketId } from '../../domain/markets.ts';
import { auth, buildHarness, fetchRecord, KEYS } from '../test-support.ts';

const FOUR: MarketId[] = ['skinport', 'csfloat', 'buff163', 'dmarket'];

async function fourMarkets() {
  return buildHarness({ marketsForGame: (game) => (game === 'cs2' ? FOUR : ['rusttm']) });
}

type Row = {
  market: string;
  status: string;
  delay_seconds: number | null;
  last_update: string | null;
};

describe('200 /v1/status/freshness', () => {
  test('5:00 healthy, 5:00.001 degraded, 15:00 degraded, 15:00.001 stale; never → stale with nulls', async () => {
    const { app, clock, quote } = await fourMarkets();
    const now = clock.now();
    quote('ask', 'cs2-redline-ft', 'skinport', [1], now - 5 * MINUTE);
    quote('ask', 'cs2-redline-ft', 'csfloat', [1], now - 5 * MINUTE - 1);
    quote('ask', 'cs2-redline-ft', 'buff163', [1], now - 15 * MINUTE);
    const body = (
      await app.inject({ url: '/v1/status/freshness', headers: auth(KEYS.developer) })
    ).json();
    const byMarket = Object.fromEntries(body.markets.map((row: Row) => [row.market, row]));
    assert.equal(byMarket.skinport.status, 'healthy');
    assert.equal(byMarket.skinport.delay_seconds, 300);
    assert.equal(byMarket.csfloat.status, 'degraded');
    assert.equal(byMarket.buff163.status, 'degraded');
    assert.deepEqual(byMarket.dmarket, {
      market: 'dmarket',
      delay_seconds: null,
      last_update: null,
      status: 'stale',
    });
    assert.equal(body.overall_status, 'degraded');
    assert.equal(body.checked_at, '2026-11-01T12:00:00.000Z');
    clock.advance(1);
    const later = (
      await app.inject({ url: '/v1/status/freshness', headers: auth(KEYS.developer) })
    ).json();
    assert.equal(later.markets.find((row: Row) => row.market === 'buff163').status, 'stale');
  });

  test('overall: stale when more than half are stale, degraded at exactly half, healthy when all fresh', async () => {
    const { app, clock, quote, history } = await fourMarkets();
    const now = clock.now();
    const overall = async () =>
      (await app.inject({ url: '/v1/status/freshness', headers: auth(KEYS.developer) })).json()
        .overall_status;
    quote('ask', 'cs2-redline-ft', 'skinport', [1], now);
    assert.equal(await overall(), 'stale', '3 of 4 never delivered');
    history.list.push(fetchRecord('csfloat', now - 1000, true));
    assert.equal(await overall(), 'degraded', '2 of 4 stale');
    history.list.push(
      fetchRecord('buff163', now - 1000, true),
      fetchRecord('dmarket', now - 1000, true),
    );
    assert.equal(await overall(), 'healthy');
    clock.advance(5 * MINUTE + 600);
    quote('ask', 'cs2-redline-ft', 'skinport', [1], clock.now());
    quote('ask', 'cs2-redline-ft', 'csfloat', [1], clock.now());
    assert.equal(await overall(), 'degraded', '2 of 4 degraded is more than 30%');
  });

  test('a failed fetch does not count as an update', async () => {
    const { app, clock, history } = await fourMarkets();
    history.list.push(fetchRecord('skinport', clock.now() - 1000, false));
    const body = (
      await app.inject({ url: '/v1/status/freshness', headers: auth(KEYS.developer) })
    ).json();
    assert.equal(body.markets[0].last_update, null);
  });

  test('/v2/status/freshness?game=rust uses the rust markets', async () => {
    const { app } = await fourMarkets();
    const body = (
      await app.inject({ url: '/v2/status/freshness?game=rust', headers: auth(KEYS.developer) })
    ).json();
    assert.deepEqual(
      body.markets.map((row: Row) => row.market),
      ['rusttm'],
    );
  });
});

describe('200 /v1/status/market-latency', () => {
  test('24-hour window of this game, nearest-rank percentiles, rates', async () => {
    const { app, clock, history } = await fourMarkets();
    const now = clock.now();
    history.list.push(
      fetchRecord('skinport', now - 1000, true, 400),
      fetchRecord('skinport', now - 2000, true, 800),
      fetchRecord('skinport', now - 3000, false),
      fetchRecord('skinport', now - 4000, true, 20_000),
      fetchRecord('skinport', now - DAY - 1, true, 5),
      fetchRecord('rusttm', now - 1000, true, 5, 'rust'),
    );
    const body = (
      await app.inject({ url: '/v1/status/market-latency', headers: auth(KEYS.developer) })
    ).json();
    assert.equal(body.window_hours, 24);
    assert.equal(body.measured_at, '2026-11-01T12:00:00.000Z');
    assert.deepEqual(body.markets[0], {
      market: 'skinport',
      avg_latency_ms: 7067,
      p95_latency_ms: 20_000,
      p99_latency_ms: 20_000,
      fetch_count: 4,
      error_rate: 0.25,
      slo_breach_rate: 0.5,
      error_rates_by_kind: { http_5xx: 0.25 },
      unmapped_rate: 0,
    });
    assert.equal(body.markets[1].fetch_count, 0);
    assert.equal(body.markets[1].avg_latency_ms, null);
  });
});

describe('400 / 401', () => {
  test('/v2 status needs a valid game, checked after auth', async () => {
    const { app } = await fourMarkets();
    assert.equal((await app.inject({ url: '/v2/status/market-latency' })).statusCode, 401);
    const response = await app.inject({
      url: '/v2/status/market-latency',
      headers: auth(KEYS.developer),
    });
    assert.equal(response.statusCode, 400);
  });
});
