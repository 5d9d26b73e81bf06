import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { MINUTE } from '../../domain/clock.ts';
import { auth, buildHarness, KEYS } from '../test-support.ts';

const REDLINE = 'AK-47 | Redline (Field-Tested)';
const path = (name: string) => `/v1/pricing/${encodeURIComponent(name)}`;

async function quoted() {
  const harness = await buildHarness();
  const at = harness.clock.now();
  harness.quote('ask', 'cs2-redline-ft', 'skinport', [1600], at - MINUTE);
  harness.quote('ask', 'cs2-redline-ft', 'csfloat', [1500], at - 2 * MINUTE);
  harness.quote('bid', 'cs2-redline-ft', 'csfloat', [1400], at - MINUTE);
  harness.quote('bid', 'cs2-redline-ft', 'steamcommunity', [1450], at - MINUTE);
  return harness;
}

describe('200', () => {
  test('the snapshot by URL-encoded name, with every Quote field and nulls kept', async () => {
    const { app } = await quoted();
    const response = await app.inject({ url: path(REDLINE), headers: auth(KEYS.developer) });
    assert.equal(response.statusCode, 200);
    const body = response.json();
    assert.equal(body.canonicalItemId, 'cs2-redline-ft');
    assert.equal(body.name, REDLINE);
    assert.deepEqual(Object.keys(body), [
      'canonicalItemId',
      'name',
      'aggregate',
      'markets',
      'buyOrders',
      'bestAsk',
      'bestBid',
      'spreadBps',
      'marketCount',
      'freshMarketCount',
      'calculatedAt',
    ]);
    assert.deepEqual(Object.keys(body.markets[0]), [
      'market',
      'price',
      'currency',
      'fetchedAt',
      'ingestedAt',
      'quoteSize',
      'ingestLatencyMs',
      'isStale',
      'sourceUpdatedAt',
      'sourceTimeKind',
      'sourceAgeSeconds',
    ]);
    assert.equal(body.markets[0].sourceUpdatedAt, null);
    assert.ok('totalQuantity' in body.buyOrders[0]);
    assert.equal(body.bestAsk.market, 'csfloat');
    assert.equal(body.bestBid.market, 'csfloat', 'wallet-credit bid left out by default');
    assert.equal(body.spreadBps, 714);
    assert.equal(body.calculatedAt, '2026-11-01T12:00:00.000Z');
  });

  test('lookup by canonical id; /v2 with game; markets switches bestBid to verbatim', async () => {
    const { app } = await quoted();
    const byId = await app.inject({
      url: '/v1/pricing/cs2-redline-ft',
      headers: auth(KEYS.developer),
    });
    assert.equal(byId.json().name, REDLINE);
    const v2 = await app.inject({
      url: `/v2/pricing/cs2-redline-ft?game=cs2&markets=csfloat,steamcommunity`,
      headers: auth(KEYS.developer),
    });
    assert.equal(v2.statusCode, 200);
    assert.equal(v2.json().bestBid.market, 'steamcommunity');
    assert.deepEqual(
      v2.json().markets.map((row: { market: string }) => row.market),
      ['csfloat'],
    );
  });

  test('a name containing an encoded slash resolves', async () => {
    const { app } = await quoted();
    const response = await app.inject({
      url: path('Sticker | A/B Test'),
      headers: auth(KEYS.developer),
    });
    assert.equal(response.statusCode, 200);
    assert.equal(response.json().aggregate, null);
  });

  test('staleness at exactly 30:00 is fresh; 30:00.001 is stale', async () => {
    const { app, clock, quote } = await buildHarness();
    quote('ask', 'cs2-redline-ft', 'skinport', [1000], clock.now());
    clock.advance(30 * MINUTE);
    const at30 = (
      await app.inject({ url: '/v1/pricing/cs2-redline-ft', headers: auth(KEYS.pro) })
    ).json();
    assert.equal(at30.markets[0].isStale, false);
    assert.equal(at30.bestAsk.isStale, false);
    assert.equal(at30.freshMarketCount, 1);
    clock.advance(1);
    const later = (
      await app.inject({ url: '/v1/pricing/cs2-redline-ft', headers: auth(KEYS.pro) })
    ).json();
    assert.equal(later.markets[0].isStale, true);
    assert.equal(later.bestAsk.isStale, true);
    assert.equal(later.freshMarketCount, 0);
  });

  test('/v1: a known item without quotes answers 200 with empty rows and nulls', async () => {
    const { app } = await buildHarness();
    const body = (
      await app.inject({ url: '/v1/pricing/cs2-asiimov-ft', headers: auth(KEYS.pro) })
    ).json();
    assert.deepEqual(
      [body.aggregate, body.markets, body.buyOrders, body.bestAsk, body.bestBid, body.spreadBps],
      [null, [], [], null, null, null],
    );
  });
});

describe('400', () => {
  test('unknown market ids are named along with the valid ids of the game', async () => {
    const { app } = await quoted();
    const response = await app.inject({
      url: '/v2/pricing/rust-alien-red?game=rust&markets=rusttm,buff163,nope',
      headers: auth(KEYS.pro),
    });
    assert.equal(response.statusCode, 400);
    const [message] = response.json().message;
    assert.match(message, /unknown market ids for rust: buff163, nope/);
    assert.match(message, /valid ids: .*rusttm/);
  });

  test('an empty markets list is 400', async () => {
    const { app } = await quoted();
    for (const markets of ['', ',', ' , ']) {
      const response = await app.inject({
        url: `/v1/pricing/cs2-redline-ft?markets=${encodeURIComponent(markets)}`,
        headers: auth(KEYS.pro),
      });
      assert.equal(response.statusCode, 400);
      assert.deepEqual(response.json().message, ['markets should not be empty']);
    }
  });
});

describe('404', () => {
  test('an unknown item is 404 Not found on /v1 and /v2, with quota headers', async () => {
    const { app } = await quoted();
    for (const url of ['/v1/pricing/No%20Such%20Item', '/v2/pricing/cs2-redline-ft?game=rust']) {
      const response = await app.inject({ url, headers: auth(KEYS.pro) });
      assert.equal(response.statusCode, 404, url);
      assert.deepEqual(response.json(), {
        statusCode: 404,
        message: 'Not found',
        error: 'Not Found',
        code: 'NOT_FOUND',
      });
      assert.ok(response.headers['x-ratelimit-remaining']);
    }
  });

  test('/v2: a known item without quotes in the selection is 404', async () => {
    const { app } = await quoted();
    const response = await app.inject({
      url: '/v2/pricing/cs2-asiimov-ft?game=cs2',
      headers: auth(KEYS.pro),
    });
    assert.equal(response.statusCode, 404);
    assert.equal(response.json().message, 'No pricing data for this item');
    const restricted = await app.inject({
      url: '/v2/pricing/cs2-redline-ft?game=cs2&markets=buff163',
      headers: auth(KEYS.pro),
    });
    assert.equal(restricted.statusCode, 404);
  });
});

describe('401 / 403 / 429', () => {
  test('no key is 401 before anything else', async () => {
    const { app } = await quoted();
    assert.equal((await app.inject({ url: '/v1/pricing/nope?markets=zzz' })).statusCode, 401);
  });

  test('inactive subscription is 403', async () => {
    const { app } = await quoted();
    assert.equal(
      (await app.inject({ url: path(REDLINE), headers: auth(KEYS.inactive) })).statusCode,
      403,
    );
  });

  test('the 61st developer request in a minute is 429', async () => {
    const { app } = await quoted();
    for (let index = 0; index < 60; index += 1) {
      assert.equal(
        (await app.inject({ url: path(REDLINE), headers: auth(KEYS.developer) })).statusCode,
        200,
      );
    }
    const refused = await app.inject({ url: path(REDLINE), headers: auth(KEYS.developer) });
    assert.equal(refused.statusCode, 429);
    assert.equal(refused.headers['retry-after'], '60');
  });
});
