import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { MINUTE } from '../../domain/clock.ts';
import { auth, buildHarness, KEYS } from '../test-support.ts';

async function quoted() {
  const harness = await buildHarness();
  const at = harness.clock.now();
  harness.quote('ask', 'cs2-redline-ft', 'csfloat', [1500, 1550, 1600], at - MINUTE);
  harness.quote('ask', 'cs2-redline-ft', 'skinport', [1550], at - 40 * MINUTE);
  harness.quote('bid', 'cs2-redline-ft', 'csfloat', [1400, 1350], at - MINUTE);
  harness.quote('bid', 'cs2-redline-ft', 'steamcommunity', [1450], at - MINUTE);
  return harness;
}

const prices = (levels: { price: number }[]) => levels.map((level) => level.price);

describe('200', () => {
  test('merged ladders with quotes, cumulative quantity and the top-of-book spread', async () => {
    const { app } = await quoted();
    const response = await app.inject({
      url: '/v1/nbbo/depth?market_hash_name=AK-47%20%7C%20Redline%20(Field-Tested)',
      headers: auth(KEYS.developer),
    });
    assert.equal(response.statusCode, 200);
    const body = response.json();
    assert.deepEqual(Object.keys(body), [
      'marketHashName',
      'canonicalItemId',
      'depth',
      'marketCount',
      'asks',
      'bids',
      'spreadBps',
      'locked',
      'crossed',
      'calculatedAt',
    ]);
    assert.equal(body.depth, 10);
    assert.deepEqual(prices(body.asks), [1500, 1550, 1600]);
    assert.deepEqual(prices(body.bids), [1400, 1350], 'wallet-credit bids left out by default');
    const shared = body.asks[1];
    assert.deepEqual(Object.keys(shared), [
      'rank',
      'price',
      'quantity',
      'ordersCount',
      'marketCount',
      'cumulativeQuantity',
      'updatedAt',
      'isStale',
      'quotes',
    ]);
    assert.deepEqual(
      [shared.rank, shared.quantity, shared.marketCount, shared.cumulativeQuantity, shared.isStale],
      [2, 2, 2, 3, false],
    );
    assert.deepEqual(shared.quotes[1], {
      market: 'skinport',
      level: 1,
      price: 1550,
      quantity: 1,
      ordersCount: 1,
      updatedAt: '2026-11-01T11:20:00.000Z',
      isStale: true,
    });
    assert.equal(body.spreadBps, 714);
    assert.equal(body.marketCount, 2);
  });

  test('depth 1 and 50 are accepted; markets switches bids to verbatim', async () => {
    const { app } = await quoted();
    const one = (
      await app.inject({
        url: '/v1/nbbo/depth?id=cs2-redline-ft&depth=1&markets=csfloat,steamcommunity',
        headers: auth(KEYS.developer),
      })
    ).json();
    assert.deepEqual([prices(one.asks), prices(one.bids)], [[1500], [1450]]);
    const fifty = await app.inject({
      url: '/v1/nbbo/depth?id=cs2-redline-ft&depth=50',
      headers: auth(KEYS.developer),
    });
    assert.equal(fifty.statusCode, 200);
  });

  test('an item without quotes has empty ladders; /v2 serves rust', async () => {
    const { app, quote } = await quoted();
    const empty = (
      await app.inject({ url: '/v1/nbbo/depth?id=cs2-asiimov-ft', headers: auth(KEYS.pro) })
    ).json();
    assert.deepEqual([empty.asks, empty.bids, empty.spreadBps], [[], [], null]);
    quote('bid', 'rust-alien-red', 'rusttm', [250, 240], undefined, 'rust');
    const rust = (
      await app.inject({
        url: '/v2/nbbo/depth?game=rust&market_hash_name=Alien%20Red',
        headers: auth(KEYS.pro),
      })
    ).json();
    assert.deepEqual(prices(rust.bids), [250, 240]);
  });
});

describe('400', () => {
  test('depth 0, 51, abc or 2.5', async () => {
    const { app } = await quoted();
    const cases: [string, string][] = [
      ['0', 'depth must not be less than 1'],
      ['51', 'depth must not exceed 50'],
      ['abc', 'depth must be an integer number'],
      ['2.5', 'depth must be an integer number'],
    ];
    for (const [depth, message] of cases) {
      const response = await app.inject({
        url: `/v1/nbbo/depth?id=cs2-redline-ft&depth=${depth}`,
        headers: auth(KEYS.developer),
      });
      assert.equal(response.statusCode, 400, depth);
      assert.deepEqual(response.json(), {
        statusCode: 400,
        message: [message],
        error: 'Bad Request',
        code: 'INVALID_PARAMETER',
      });
    }
  });

  test('neither market_hash_name nor id; unknown markets; /v2 without game', async () => {
    const { app } = await quoted();
    const cases: [string, RegExp][] = [
      ['/v1/nbbo/depth?depth=5', /^market_hash_name or id is required$/],
      ['/v1/nbbo/depth?id=cs2-redline-ft&markets=nope', /unknown market ids for cs2: nope/],
      ['/v2/nbbo/depth?id=cs2-redline-ft', /^game must be one of: cs2, rust$/],
    ];
    for (const [url, message] of cases) {
      const response = await app.inject({ url, headers: auth(KEYS.developer) });
      assert.equal(response.statusCode, 400, url);
      assert.match(response.json().message[0], message);
    }
  });
});

describe('401 / 404', () => {
  test('no key is 401 before validation; an unknown item is 404', async () => {
    const { app } = await quoted();
    assert.equal((await app.inject({ url: '/v1/nbbo/depth?depth=0' })).statusCode, 401);
    const unknown = await app.inject({
      url: '/v1/nbbo/depth?market_hash_name=Nope',
      headers: auth(KEYS.developer),
    });
    assert.equal(unknown.statusCode, 404);
    assert.equal(unknown.json().message, 'Not found');
  });
});
