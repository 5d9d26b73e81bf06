import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { HOUR, MINUTE } from '../../domain/clock.ts';
import { evenSales } from '../../liquidity/test-fixtures.ts';
import { ask } from '../../pricing/snapshot-fixtures.ts';
import type { CatalogItem } from '../../domain/item.ts';
import { auth, buildHarness, CS2_ITEMS, KEYS, RUST_ITEMS, testCatalog } from '../test-support.ts';

const REDLINE = 'AK-47 | Redline (Field-Tested)';
const path = (prefix: string, name = REDLINE) => `${prefix}/${encodeURIComponent(name)}`;

/** Redline: csfloat 48 sales a day and a 2-level ladder; steam 12 a day. Tempered AK47 (rust) on skinport. */
async function seeded() {
  const harness = await buildHarness();
  const now = harness.clock.now();
  harness.book.apply({
    sides: [
      ask({
        market: 'csfloat',
        prices: [1000, 1010],
        quantity: 2,
        fetchedAt: now,
        itemId: 'cs2-redline-ft',
      }),
      ask({
        market: 'steamcommunity',
        prices: [1100],
        quantity: 5,
        fetchedAt: now,
        itemId: 'cs2-redline-ft',
      }),
      ask({
        market: 'skinport',
        prices: [500],
        fetchedAt: now,
        itemId: 'rust-tempered-ak',
        game: 'rust',
      }),
    ],
    sales: [
      ...evenSales('csfloat', 48, now - 10 * MINUTE, 30 * MINUTE, 'cs2-redline-ft'),
      ...evenSales('steamcommunity', 12, now - 10 * MINUTE, 2 * HOUR, 'cs2-redline-ft'),
      ...evenSales('skinport', 20, now - MINUTE, HOUR, 'rust-tempered-ak', 'rust'),
    ],
    listings: [],
  });
  return harness;
}

describe('200', () => {
  test('GET /v1/liquidity/:name: the full record', async () => {
    const { app } = await seeded();
    const response = await app.inject({ url: path('/v1/liquidity'), headers: auth(KEYS.pro) });
    assert.equal(response.statusCode, 200);
    const body = response.json();
    assert.equal(body.canonicalItemId, 'cs2-redline-ft');
    assert.equal(body.bestMarketToList, 'csfloat');
    assert.equal(body.referenceAskUsdCents, 1000);
    assert.equal(body.liquidityBadge, 'EXTREMELY_LIQUID');
    assert.equal(body.metrics.length, 5);
    assert.deepEqual(body.notes, [
      'no_sales_data:skinport',
      'no_sales_data:marketcsgo',
      'no_sales_data:dmarket',
    ]);
  });

  test('askPrice and market: one metrics row, queue behind the units at or below', async () => {
    const { app } = await seeded();
    const front = await app.inject({
      url: `${path('/v1/liquidity')}?askPrice=999&market=csfloat`,
      headers: auth(KEYS.pro),
    });
    const behind = await app.inject({
      url: `${path('/v1/liquidity')}?askPrice=1010&market=csfloat`,
      headers: auth(KEYS.pro),
    });
    assert.equal(front.statusCode, 200);
    assert.deepEqual(
      front.json().metrics.map((row: { market: string }) => row.market),
      ['csfloat'],
    );
    assert.equal(front.json().referenceAskUsdCents, 999);
    assert.ok(behind.json().medianTimeToSellHours > front.json().medianTimeToSellHours);
  });

  test('summary: badge, label, sale-time text, score', async () => {
    const { app } = await seeded();
    const response = await app.inject({
      url: path('/v1/liquidity/summary'),
      headers: auth(KEYS.pro),
    });
    assert.equal(response.statusCode, 200);
    const body = response.json();
    assert.deepEqual(Object.keys(body).sort(), [
      'bestMarketToList',
      'calculatedAt',
      'confidence',
      'estimatedSaleTime',
      'liquidity',
      'liquidityBadge',
      'marketHashName',
      'score',
    ]);
    assert.equal(body.liquidity, 'extremely_liquid');
    assert.match(body.estimatedSaleTime, /^\d+ - \d+ hours$/);
    assert.ok(body.score > 80 && body.score <= 100);
  });

  test('summary of an item without sales: unknown, Insufficient data, score null', async () => {
    const { app } = await seeded();
    const response = await app.inject({
      url: path('/v1/liquidity/summary', 'AWP | Asiimov (Field-Tested)'),
      headers: auth(KEYS.pro),
    });
    const body = response.json();
    assert.equal(body.liquidityBadge, 'INSUFFICIENT_DATA');
    assert.equal(body.liquidity, 'unknown');
    assert.equal(body.estimatedSaleTime, 'Insufficient data');
    assert.equal(body.score, null);
    assert.equal(body.confidence, 'CRITICAL');
  });

  test('/v2 with game=rust: rusttm and skinport', async () => {
    const { app } = await seeded();
    const response = await app.inject({
      url: `${path('/v2/liquidity', 'Tempered AK47')}?game=rust`,
      headers: auth(KEYS.pro),
    });
    assert.equal(response.statusCode, 200);
    const body = response.json();
    assert.deepEqual(
      body.metrics.map((row: { market: string }) => row.market),
      ['rusttm', 'skinport'],
    );
    assert.equal(body.bestMarketToList, 'skinport');
  });

  test('batch: results in order, each item once, notFound, requested; one quota unit', async () => {
    const { app } = await seeded();
    const response = await app.inject({
      method: 'POST',
      url: '/v1/liquidity/batch',
      headers: auth(KEYS.pro),
      payload: { marketHashNames: [REDLINE, 'No Such Item', 'cs2-asiimov-ft', REDLINE, ''] },
    });
    assert.equal(response.statusCode, 200);
    const body = response.json();
    assert.deepEqual(
      body.results.map((row: { canonicalItemId: string }) => row.canonicalItemId),
      ['cs2-redline-ft', 'cs2-asiimov-ft'],
    );
    assert.deepEqual(body.notFound, ['No Such Item', '']);
    assert.equal(body.requested, 5);
    assert.equal(response.headers['x-ratelimit-remaining'], '599');
  });

  test('POST /v2/liquidity/batch?game=rust with market', async () => {
    const { app } = await seeded();
    const response = await app.inject({
      method: 'POST',
      url: '/v2/liquidity/batch?game=rust',
      headers: auth(KEYS.pro),
      payload: { marketHashNames: ['Tempered AK47'], market: 'skinport' },
    });
    assert.equal(response.statusCode, 200);
    assert.equal(response.json().results[0].metrics.length, 1);
  });
});

describe('batch item selectors', () => {
  const storm = (id: string, mark: string, slug: string): CatalogItem => ({
    id,
    game: 'cs2',
    marketHashName: `Desert Eagle | Sunset Storm ${mark} (Factory New)`,
    slug,
    category: 'skin',
  });
  const STORM_SLUG = 'desert-eagle-sunset-storm-factory-new';
  const withStorms = () =>
    buildHarness({
      catalogs: {
        cs2: testCatalog('cs2', [
          ...CS2_ITEMS,
          storm('cs2-storm-1', '壱', STORM_SLUG),
          storm('cs2-storm-2', '弐', `${STORM_SLUG}-2`),
        ]),
        rust: testCatalog('rust', RUST_ITEMS),
      },
    });
  const batch = (
    app: Awaited<ReturnType<typeof buildHarness>>['app'],
    url: string,
    names: string[],
  ) =>
    app.inject({
      method: 'POST',
      url,
      headers: auth(KEYS.pro),
      payload: { marketHashNames: names },
    });
  const names = (body: { results: { marketHashName: string }[] }) =>
    body.results.map((row) => row.marketHashName);

  test('by canonical id, by slug and by name in any case: the canonical name, each item once', async () => {
    const { app } = await seeded();
    const response = await batch(app, '/v2/liquidity/batch?game=cs2', [
      'cs2-asiimov-ft',
      'ak-47-redline-field-tested',
      REDLINE,
      'cs2-redline-ft',
      'awp | asiimov (field-tested)',
    ]);
    assert.equal(response.statusCode, 200, response.body);
    const body = response.json();
    assert.deepEqual(names(body), ['AWP | Asiimov (Field-Tested)', REDLINE]);
    assert.deepEqual(
      body.results.map((row: { canonicalItemId: string }) => row.canonicalItemId),
      ['cs2-asiimov-ft', 'cs2-redline-ft'],
    );
    assert.equal(body.results[1].liquidityBadge, 'EXTREMELY_LIQUID');
    assert.deepEqual(body.notFound, []);
    assert.equal(body.requested, 5);
  });

  test('/v1 takes the same selectors; /v2 resolves within its game', async () => {
    const { app } = await seeded();
    const v1 = await batch(app, '/v1/liquidity/batch', [
      'tempered-ak47',
      'ak-47-redline-field-tested',
    ]);
    assert.deepEqual(names(v1.json()), [REDLINE]);
    assert.deepEqual(v1.json().notFound, ['tempered-ak47']);
    const rust = await batch(app, '/v2/liquidity/batch?game=rust', [
      'tempered-ak47',
      'rust-tempered-ak',
      'ak-47-redline-field-tested',
    ]);
    assert.equal(rust.statusCode, 200, rust.body);
    assert.deepEqual(names(rust.json()), ['Tempered AK47']);
    assert.deepEqual(rust.json().notFound, ['ak-47-redline-field-tested']);
  });

  test('unknown entries go to notFound once each, in request order', async () => {
    const { app } = await seeded();
    const response = await batch(app, '/v2/liquidity/batch?game=cs2', [
      'no-such-slug',
      'cs2-redline-ft',
      'No Such Item',
      'no-such-slug',
    ]);
    assert.equal(response.statusCode, 200);
    assert.deepEqual(response.json().notFound, ['no-such-slug', 'No Such Item']);
    assert.deepEqual(names(response.json()), [REDLINE]);
  });

  test('an ambiguous entry: 409 naming the entry, its position and the candidates', async () => {
    const { app } = await withStorms();
    for (const url of ['/v2/liquidity/batch?game=cs2', '/v1/liquidity/batch']) {
      const response = await batch(app, url, [REDLINE, 'no such item', STORM_SLUG]);
      assert.equal(response.statusCode, 409, response.body);
      const body = response.json();
      assert.equal(body.code, 'AMBIGUOUS_ITEM');
      assert.equal(body.statusCode, 409);
      assert.deepEqual(body.message, [
        `marketHashNames[2] "${STORM_SLUG}" matches 2 items; use the exact name: ` +
          'Desert Eagle | Sunset Storm 壱 (Factory New); Desert Eagle | Sunset Storm 弐 (Factory New)',
      ]);
    }
  });

  test('the exact name or the suffixed slug of a clashing item is not ambiguous', async () => {
    const { app } = await withStorms();
    const response = await batch(app, '/v2/liquidity/batch?game=cs2', [
      'Desert Eagle | Sunset Storm 壱 (Factory New)',
      `${STORM_SLUG}-2`,
    ]);
    assert.equal(response.statusCode, 200, response.body);
    assert.deepEqual(
      response.json().results.map((row: { canonicalItemId: string }) => row.canonicalItemId),
      ['cs2-storm-1', 'cs2-storm-2'],
    );
  });
});

describe('400', () => {
  const bad = [
    `${path('/v1/liquidity')}?askPrice=abc`,
    `${path('/v1/liquidity')}?askPrice=0`,
    `${path('/v1/liquidity')}?askPrice=10.5`,
    `${path('/v1/liquidity')}?market=buff163`,
    `${path('/v2/liquidity', 'Tempered AK47')}?game=rust&market=csfloat`,
    `${path('/v2/liquidity')}`,
    `${path('/v1/liquidity/summary')}?market=nope`,
  ];
  for (const url of bad) {
    test(`GET ${url}`, async () => {
      const { app } = await seeded();
      const response = await app.inject({ url, headers: auth(KEYS.pro) });
      assert.equal(response.statusCode, 400, response.body);
      assert.equal(response.json().code, 'INVALID_PARAMETER');
    });
  }

  test('a market outside the liquidity markets names the valid ones', async () => {
    const { app } = await seeded();
    const response = await app.inject({
      url: `${path('/v1/liquidity')}?market=buff163`,
      headers: auth(KEYS.pro),
    });
    assert.deepEqual(response.json().message, [
      'market must be one of: skinport, marketcsgo, dmarket, csfloat, steamcommunity',
    ]);
  });

  const bodies: [string, unknown][] = [
    ['101 names', { marketHashNames: Array.from({ length: 101 }, (_, i) => `item ${i}`) }],
    ['no names', { marketHashNames: [] }],
    ['missing names', {}],
    ['names not an array', { marketHashNames: REDLINE }],
    ['a name not a string', { marketHashNames: [42] }],
    ['unknown field', { marketHashNames: [REDLINE], extra: 1 }],
    ['unknown market', { marketHashNames: [REDLINE], market: 'buff163' }],
  ];
  for (const [label, payload] of bodies) {
    test(`batch: ${label}`, async () => {
      const { app } = await seeded();
      const response = await app.inject({
        method: 'POST',
        url: '/v1/liquidity/batch',
        headers: auth(KEYS.pro),
        payload: payload as object,
      });
      assert.equal(response.statusCode, 400, response.body);
      assert.equal(response.json().code, 'INVALID_PARAMETER');
    });
  }

  test('batch: exactly 100 names is fine', async () => {
    const { app } = await seeded();
    const response = await app.inject({
      method: 'POST',
      url: '/v1/liquidity/batch',
      headers: auth(KEYS.pro),
      payload: { marketHashNames: Array.from({ length: 100 }, () => REDLINE) },
    });
    assert.equal(response.statusCode, 200);
    assert.equal(response.json().requested, 100);
  });

  test('batch: malformed JSON', async () => {
    const { app } = await seeded();
    const response = await app.inject({
      method: 'POST',
      url: '/v1/liquidity/batch',
      headers: { ...auth(KEYS.pro), 'content-type': 'application/json' },
      payload: '{"marketHashNames": [',
    });
    assert.equal(response.statusCode, 400);
  });
});

describe('401 / 403 / 404', () => {
  test('no key 401; Developer 403 naming feature:liquidity', async () => {
    const { app } = await seeded();
    assert.equal((await app.inject({ url: path('/v1/liquidity') })).statusCode, 401);
    const refused = await app.inject({ url: path('/v1/liquidity'), headers: auth(KEYS.developer) });
    assert.equal(refused.statusCode, 403);
    assert.match(refused.json().message, /feature:liquidity/);
  });

  test('unknown item: 404 on the record, the summary and /v2', async () => {
    const { app } = await seeded();
    for (const url of [
      path('/v1/liquidity', 'No Such Item'),
      path('/v1/liquidity/summary', 'No Such Item'),
      `${path('/v2/liquidity/summary', 'No Such Item')}?game=cs2`,
    ]) {
      const response = await app.inject({ url, headers: auth(KEYS.pro) });
      assert.equal(response.statusCode, 404, url);
    }
  });
});
