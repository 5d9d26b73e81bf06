import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { MINUTE } from '../../domain/clock.ts';
import type { MarketId } from '../../domain/markets.ts';
import { buildHarness, fetchRecord } from '../test-support.ts';

const CADENCE: Partial<Record<MarketId, number>> = { skinport: MINUTE, buff163: 10 * MINUTE };

async function harness() {
  return buildHarness({
    marketsForGame: (game) => (game === 'cs2' ? ['skinport', 'buff163', 'csfloat'] : ['rusttm']),
    marketCadence: (market) => CADENCE[market] ?? MINUTE,
  });
}

type Row = { id: string; status: string; healthBars: (number | null)[] };

describe('200', () => {
  test('keyless bare array, one row per market, judged against each cadence, no quota headers', async () => {
    const { app, clock, quote, history } = await harness();
    const now = clock.now();
    quote('ask', 'cs2-redline-ft', 'skinport', [1000], now - 3 * MINUTE);
    quote('ask', 'cs2-redline-ft', 'buff163', [1000], now - 3 * MINUTE);
    history.list.push(fetchRecord('skinport', now - 3 * MINUTE - 500, true));
    const response = await app.inject({ url: '/v1/markets/health' });
    assert.equal(response.statusCode, 200);
    for (const name of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset']) {
      assert.equal(response.headers[name], undefined);
    }
    assert.ok(response.headers['x-request-id']);
    const rows: Row[] = response.json();
    assert.deepEqual(
      rows.map((row) => [row.id, row.status]),
      [
        ['skinport', 'warn'],
        ['buff163', 'live'],
        ['csfloat', 'stale'],
      ],
    );
    assert.equal(rows[0]!.healthBars.length, 48);
    assert.equal(rows[0]!.healthBars[46], 2, 'the previous half hour');
    assert.equal(rows[0]!.healthBars[47], null, 'the current half hour has no fetch yet');
    assert.deepEqual(response.json()[2], {
      id: 'csfloat',
      status: 'stale',
      lastEventAt: null,
      listingsCount: null,
      freshnessCoveragePct: null,
      healthBars: new Array(48).fill(null),
      lastError: null,
      note: null,
    });
    assert.equal(response.json()[0].listingsCount, 1);
    assert.equal(response.json()[0].freshnessCoveragePct, 100);
  });

  test('/v2/markets/health?game=rust', async () => {
    const { app } = await harness();
    const response = await app.inject({ url: '/v2/markets/health?game=rust' });
    assert.deepEqual(
      response.json().map((row: Row) => row.id),
      ['rusttm'],
    );
  });
});

describe('400', () => {
  test('/v2 without a valid game', async () => {
    const { app } = await harness();
    for (const url of ['/v2/markets/health', '/v2/markets/health?game=dota']) {
      const response = await app.inject({ url });
      assert.equal(response.statusCode, 400);
      assert.deepEqual(response.json().message, ['game must be one of: cs2, rust']);
    }
  });
});

describe('429', () => {
  test('60 a minute per IP, then 429 with Retry-After; other IPs unaffected; the next minute is open', async () => {
    const { app, clock } = await harness();
    clock.advance(15_000);
    const from = (remoteAddress: string) =>
      app.inject({ url: '/v1/markets/health', remoteAddress });
    for (let index = 0; index < 60; index += 1)
      assert.equal((await from('10.0.0.1')).statusCode, 200);
    const refused = await from('10.0.0.1');
    assert.equal(refused.statusCode, 429);
    assert.equal(refused.headers['retry-after'], '45');
    assert.equal(refused.json().code, 'RATE_LIMITED');
    assert.equal(refused.json().error, 'Too Many Requests');
    assert.equal(refused.headers['x-ratelimit-limit'], undefined);
    assert.equal((await from('::ffff:10.0.0.1')).statusCode, 429, 'IPv4-mapped is the same client');
    assert.equal((await from('10.0.0.2')).statusCode, 200);
    clock.advance(45_000);
    assert.equal((await from('10.0.0.1')).statusCode, 200);
  });
});
