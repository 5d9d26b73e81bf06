import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { MINUTE } from '../../domain/clock.ts';
import { applyFeeOverrides, DEFAULT_FEE_MODEL } from '../../markets/fees.ts';
import { auth, buildHarness, KEYS } from '../test-support.ts';

const REDLINE = 'AK-47 | Redline (Field-Tested)';
const byName = (name: string, extra = '') =>
  `/v1/nbbo?market_hash_name=${encodeURIComponent(name)}${extra}`;

async function quoted(overrides = {}) {
  const harness = await buildHarness(overrides);
  const at = harness.clock.now();
  harness.quote('ask', 'cs2-redline-ft', 'skinport', [1600], at - MINUTE);
  harness.quote('ask', 'cs2-redline-ft', 'csfloat', [1500], at - 2 * MINUTE);
  harness.quote('bid', 'cs2-redline-ft', 'csfloat', [1400], at - MINUTE);
  harness.quote('bid', 'cs2-redline-ft', 'steamcommunity', [1450], at - MINUTE);
  return harness;
}

describe('200', () => {
  test('the NBBO record by name: every field, spread over the bid, fees applied', async () => {
    const { app } = await quoted();
    const response = await app.inject({ url: byName(REDLINE), headers: auth(KEYS.developer) });
    assert.equal(response.statusCode, 200);
    const body = response.json();
    assert.deepEqual(Object.keys(body), [
      'marketHashName',
      'canonicalItemId',
      'bestAsk',
      'bestBid',
      'spreadBps',
      'marketCount',
      'freshMarketCount',
      'locked',
      'crossed',
      'confidence',
      'executionAdjusted',
      'calculatedAt',
    ]);
    assert.deepEqual(body.bestAsk, {
      market: 'csfloat',
      price: 1500,
      updatedAt: '2026-11-01T11:58:00.000Z',
      isStale: false,
    });
    assert.equal(body.bestBid.market, 'csfloat');
    assert.equal(body.spreadBps, 714);
    assert.deepEqual([body.locked, body.crossed], [false, false]);
    assert.ok(body.confidence > 0 && body.confidence <= 1);
    const adjusted = body.executionAdjusted;
    assert.deepEqual(Object.keys(adjusted), [
      'bestAsk',
      'bestBid',
      'spreadBps',
      'locked',
      'crossed',
      'executableConfidence',
      'reasons',
      'feeModelVersion',
      'calculatedAt',
    ]);
    assert.deepEqual(adjusted.bestBid, {
      market: 'csfloat',
      price: 1372,
      rawPrice: 1400,
      appliedFeeBps: 200,
      executability: 0.9,
      updatedAt: '2026-11-01T11:59:00.000Z',
      isStale: false,
      reasons: ['assumed_fees'],
      withdrawalFlatUsdCents: 0,
    });
    assert.equal(adjusted.bestAsk.price, 1500);
    assert.equal(adjusted.spreadBps, 933);
    assert.deepEqual(adjusted.reasons, ['assumed_fees']);
    assert.equal(adjusted.feeModelVersion, '2026-11');
    assert.equal(body.calculatedAt, '2026-11-01T12:00:00.000Z');
  });

  test('by canonical id, and market_hash_name also accepts a canonical id', async () => {
    const { app } = await quoted();
    for (const url of ['/v1/nbbo?id=cs2-redline-ft', '/v1/nbbo?market_hash_name=cs2-redline-ft']) {
      const response = await app.inject({ url, headers: auth(KEYS.developer) });
      assert.equal(response.statusCode, 200, url);
      assert.equal(response.json().marketHashName, REDLINE);
    }
  });

  test('executionAdjusted is null when the item has no quotes (v1 and v2)', async () => {
    const { app } = await quoted();
    for (const url of ['/v1/nbbo?id=cs2-asiimov-ft', '/v2/nbbo?game=cs2&id=cs2-asiimov-ft']) {
      const body = (await app.inject({ url, headers: auth(KEYS.developer) })).json();
      assert.deepEqual(
        [body.bestAsk, body.bestBid, body.spreadBps, body.executionAdjusted, body.confidence],
        [null, null, null, null, 0],
        url,
      );
    }
  });

  test('a quote-less selection also gives executionAdjusted null', async () => {
    const { app } = await quoted();
    const body = (
      await app.inject({ url: byName(REDLINE, '&markets=buff163'), headers: auth(KEYS.pro) })
    ).json();
    assert.equal(body.executionAdjusted, null);
  });

  test('the adjusted best bid may come from another market than the raw best', async () => {
    const { app, quote } = await quoted();
    quote('bid', 'cs2-redline-ft', 'skinport', [1450]);
    const body = (await app.inject({ url: byName(REDLINE), headers: auth(KEYS.pro) })).json();
    assert.equal(body.bestBid.market, 'skinport');
    assert.equal(body.executionAdjusted.bestBid.market, 'csfloat');
  });

  test('crossed and locked books; spreadBps negative when crossed', async () => {
    const { app, quote } = await quoted();
    quote('bid', 'cs2-redline-ft', 'buff163', [1515]);
    const crossed = (await app.inject({ url: byName(REDLINE), headers: auth(KEYS.pro) })).json();
    assert.deepEqual([crossed.crossed, crossed.locked, crossed.spreadBps], [true, false, -99]);
    quote('bid', 'cs2-redline-ft', 'buff163', [1500]);
    const locked = (await app.inject({ url: byName(REDLINE), headers: auth(KEYS.pro) })).json();
    assert.deepEqual([locked.crossed, locked.locked, locked.spreadBps], [false, true, 0]);
  });

  test('the fee model comes from the deps (feeModelVersion and buyer fee)', async () => {
    const feeModel = applyFeeOverrides(
      DEFAULT_FEE_MODEL,
      { version: 'test-1', markets: { csfloat: { buyerFeeBps: 1000 } } },
      'test',
    );
    const { app } = await quoted({ feeModel });
    const adjusted = (await app.inject({ url: byName(REDLINE), headers: auth(KEYS.pro) })).json()
      .executionAdjusted;
    assert.equal(adjusted.feeModelVersion, 'test-1');
    assert.deepEqual(
      [adjusted.bestAsk.market, adjusted.bestAsk.price, adjusted.bestAsk.rawPrice],
      ['skinport', 1600, 1600],
      'csfloat costs 1650 with a 10% buyer fee, so skinport is the cheaper buy',
    );
  });

  test('/v2 serves rust items', async () => {
    const { app, quote } = await quoted();
    quote('ask', 'rust-alien-red', 'rusttm', [300], undefined, 'rust');
    const response = await app.inject({
      url: '/v2/nbbo?game=rust&market_hash_name=Alien%20Red',
      headers: auth(KEYS.developer),
    });
    assert.equal(response.statusCode, 200);
    assert.equal(response.json().bestAsk.market, 'rusttm');
  });
});

describe('best-bid rule, identical on /v1/pricing and /v1/nbbo', () => {
  const routes = [
    (markets: string) => `/v1/pricing/cs2-redline-ft${markets ? `?markets=${markets}` : ''}`,
    (markets: string) => `/v1/nbbo?id=cs2-redline-ft${markets ? `&markets=${markets}` : ''}`,
  ];

  test('without markets the wallet-credit bid is ignored', async () => {
    const { app } = await quoted();
    for (const route of routes) {
      const body = (await app.inject({ url: route(''), headers: auth(KEYS.pro) })).json();
      assert.deepEqual([body.bestBid.market, body.bestBid.price], ['csfloat', 1400], route(''));
      assert.equal(body.spreadBps, 714);
    }
  });

  test('with markets=steamcommunity,csfloat every listed bid is taken verbatim', async () => {
    const { app } = await quoted();
    const url = (route: (markets: string) => string) => route('steamcommunity,csfloat');
    for (const route of routes) {
      const body = (await app.inject({ url: url(route), headers: auth(KEYS.pro) })).json();
      assert.deepEqual(
        [body.bestBid.market, body.bestBid.price],
        ['steamcommunity', 1450],
        url(route),
      );
      assert.equal(body.spreadBps, 345);
    }
  });
});

describe('400', () => {
  test('neither market_hash_name nor id (empty values count as absent)', async () => {
    const { app } = await quoted();
    for (const url of ['/v1/nbbo', '/v1/nbbo?market_hash_name=&id=', '/v2/nbbo?game=cs2']) {
      const response = await app.inject({ url, headers: auth(KEYS.developer) });
      assert.equal(response.statusCode, 400, url);
      assert.deepEqual(response.json(), {
        statusCode: 400,
        message: ['market_hash_name or id is required'],
        error: 'Bad Request',
        code: 'INVALID_PARAMETER',
      });
    }
  });

  test('unknown markets are named', async () => {
    const { app } = await quoted();
    const response = await app.inject({
      url: byName(REDLINE, '&markets=csfloat,rusttm'),
      headers: auth(KEYS.developer),
    });
    assert.equal(response.statusCode, 400);
    assert.match(response.json().message[0], /unknown market ids for cs2: rusttm/);
  });

  test('/v2 requires game, checked after authentication', async () => {
    const { app } = await quoted();
    assert.equal((await app.inject({ url: '/v2/nbbo?id=cs2-redline-ft' })).statusCode, 401);
    for (const url of ['/v2/nbbo?id=cs2-redline-ft', '/v2/nbbo?game=dota&id=cs2-redline-ft']) {
      const response = await app.inject({ url, headers: auth(KEYS.developer) });
      assert.equal(response.statusCode, 400, url);
      assert.deepEqual(response.json().message, ['game must be one of: cs2, rust']);
    }
  });
});

describe('404', () => {
  test('unknown name or id; an id is not looked up as a name', async () => {
    const { app } = await quoted();
    for (const url of [
      byName('No Such Item'),
      '/v1/nbbo?id=cs2-nope',
      `/v1/nbbo?id=${encodeURIComponent(REDLINE)}`,
      '/v2/nbbo?game=rust&id=cs2-redline-ft',
    ]) {
      const response = await app.inject({ url, headers: auth(KEYS.developer) });
      assert.equal(response.statusCode, 404, url);
      assert.equal(response.json().message, 'Not found');
    }
  });
});

describe('401 / 403', () => {
  test('no key is 401; an inactive subscription is 403', async () => {
    const { app } = await quoted();
    assert.equal((await app.inject({ url: byName(REDLINE) })).statusCode, 401);
    const inactive = await app.inject({ url: byName(REDLINE), headers: auth(KEYS.inactive) });
    assert.equal(inactive.statusCode, 403);
  });
});

describe('OpenAPI', () => {
  test('every issue-3 route is documented with its 200 schema and errors', async () => {
    const { app } = await buildHarness();
    const document = (await app.inject({ url: '/openapi.json' })).json();
    for (const route of [
      '/v1/nbbo',
      '/v2/nbbo',
      '/v1/nbbo/depth',
      '/v2/nbbo/depth',
      '/v1/recommendations/{marketHashName}',
      '/v1/aggregations/min-prices',
      '/v1/aggregations/max-orders',
      '/v1/arbitrage/opportunities',
    ]) {
      const operation = document.paths[route]?.get;
      assert.ok(operation, route);
      assert.ok(operation.responses['200'].content['application/json'].schema.properties, route);
      assert.ok(operation.responses['400'] && operation.responses['429'], route);
      assert.deepEqual(operation.security, [{ ApiKey: [] }], route);
    }
  });
});
