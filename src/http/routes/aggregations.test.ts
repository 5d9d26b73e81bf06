import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { MINUTE } from '../../domain/clock.ts';
import { auth, buildHarness, KEYS } from '../test-support.ts';

const REDLINE = 'AK-47 | Redline (Field-Tested)';
const csv = (...entries: string[]) => entries.map(encodeURIComponent).join(',');

async function quoted() {
  const harness = await buildHarness();
  const at = harness.clock.now();
  harness.quote('ask', 'cs2-redline-ft', 'skinport', [1600], at - MINUTE);
  harness.quote('ask', 'cs2-redline-ft', 'csfloat', [1500], at - 45 * MINUTE);
  harness.quote('bid', 'cs2-redline-ft', 'csfloat', [1400], at - MINUTE);
  harness.quote('bid', 'cs2-redline-ft', 'steamcommunity', [1450], at - MINUTE);
  harness.quote('ask', 'cs2-vulcan-mw', 'buff163', [9000], at - MINUTE);
  return harness;
}

const get = async (app: Awaited<ReturnType<typeof quoted>>['app'], url: string) =>
  app.inject({ url, headers: auth(KEYS.developer) });

describe('200', () => {
  test('min-prices: one row per market, cheapest first, stale kept and flagged', async () => {
    const { app } = await quoted();
    const response = await get(app, `/v1/aggregations/min-prices?marketHashNames=${csv(REDLINE)}`);
    assert.equal(response.statusCode, 200);
    const [item] = response.json().items;
    assert.deepEqual(Object.keys(item), ['canonical_item_id', 'market_hash_name', 'prices']);
    assert.deepEqual(item.prices[0], {
      market_name: 'csfloat',
      offers: 1,
      price: 1500,
      updated_at: '2026-11-01T11:15:00.000Z',
      is_stale: true,
      ingested_at: '2026-11-01T11:15:00.250Z',
      ingest_latency_ms: 250,
    });
    assert.equal(item.prices[1].market_name, 'skinport');
  });

  test('names and canonical ids mix; unresolved entries are dropped; duplicates answered once', async () => {
    const { app } = await quoted();
    const names = csv(REDLINE, 'No Such Item', 'cs2-vulcan-mw', ' cs2-asiimov-ft ', '', REDLINE);
    const body = (
      await get(app, `/v1/aggregations/min-prices?marketHashNames=${names}&ids=nope,cs2-redline-ft`)
    ).json();
    assert.deepEqual(
      body.items.map((item: { canonical_item_id: string }) => item.canonical_item_id),
      ['cs2-redline-ft', 'cs2-vulcan-mw', 'cs2-asiimov-ft'],
    );
    assert.deepEqual(body.items[2].prices, [], 'a known item without quotes has no rows');
  });

  test('max-orders: cash-only by default; markets lists bids verbatim', async () => {
    const { app } = await quoted();
    const byDefault = (await get(app, '/v1/aggregations/max-orders?ids=cs2-redline-ft')).json();
    assert.deepEqual(
      byDefault.items[0].orders.map((row: { market_name: string }) => row.market_name),
      ['csfloat'],
    );
    assert.equal(byDefault.items[0].orders[0].total_quantity, 1);
    const listed = (
      await get(
        app,
        '/v1/aggregations/max-orders?ids=cs2-redline-ft&markets=steamcommunity,csfloat',
      )
    ).json();
    assert.deepEqual(
      listed.items[0].orders.map((row: { price: number }) => row.price),
      [1450, 1400],
    );
  });

  test('markets filters the rows; exactly 100 entries are accepted', async () => {
    const { app } = await quoted();
    const filtered = (
      await get(app, '/v1/aggregations/min-prices?ids=cs2-redline-ft&markets=skinport')
    ).json();
    assert.deepEqual(
      filtered.items[0].prices.map((row: { market_name: string }) => row.market_name),
      ['skinport'],
    );
    const hundred = Array.from({ length: 99 }, (_, index) => `missing-${index}`);
    const response = await get(
      app,
      `/v1/aggregations/min-prices?ids=${[...hundred, 'cs2-redline-ft'].join(',')}`,
    );
    assert.equal(response.statusCode, 200);
    assert.equal(response.json().items.length, 1);
  });
});

describe('400', () => {
  const cases: [string, string][] = [
    ['', 'marketHashNames or ids is required'],
    ['?marketHashNames=', 'marketHashNames or ids is required'],
    ['?marketHashNames=,,&ids=', 'marketHashNames or ids is required'],
    ['?marketHashNames=nope,Nothing', 'none of the requested items could be resolved'],
    [
      '?ids=AK-47%20%7C%20Redline%20(Field-Tested)',
      'none of the requested items could be resolved',
    ],
    [
      `?ids=${Array.from({ length: 101 }, (_, index) => `x${index}`).join(',')}`,
      'marketHashNames and ids must list no more than 100 items in total',
    ],
    [
      `?marketHashNames=${Array.from({ length: 60 }, () => 'cs2-redline-ft').join(',')}&ids=${Array.from({ length: 41 }, () => 'cs2-redline-ft').join(',')}`,
      'marketHashNames and ids must list no more than 100 items in total',
    ],
  ];

  for (const route of ['min-prices', 'max-orders']) {
    test(`${route}: missing, unresolvable or more than 100 entries`, async () => {
      const { app } = await quoted();
      for (const [query, message] of cases) {
        const response = await get(app, `/v1/aggregations/${route}${query}`);
        assert.equal(response.statusCode, 400, query);
        assert.deepEqual(response.json(), {
          statusCode: 400,
          message: [message],
          error: 'Bad Request',
          code: 'INVALID_PARAMETER',
        });
      }
    });
  }

  test('unknown markets are 400', async () => {
    const { app } = await quoted();
    const response = await get(app, '/v1/aggregations/min-prices?ids=cs2-redline-ft&markets=x');
    assert.equal(response.statusCode, 400);
    assert.match(response.json().message[0], /unknown market ids for cs2: x/);
  });
});

describe('401 / 403', () => {
  test('no key is 401 before parameter checks', async () => {
    const { app } = await quoted();
    assert.equal((await app.inject({ url: '/v1/aggregations/min-prices' })).statusCode, 401);
  });
});
