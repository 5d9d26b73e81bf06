import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { buildHarness } from './test-support.ts';

const ROUTES = [
  '/v1/pricing/{marketHashName}',
  '/v2/pricing/{marketHashName}',
  '/v1/items',
  '/v2/items',
  '/v1/items/all',
  '/v1/status/freshness',
  '/v2/status/freshness',
  '/v1/status/market-latency',
  '/v2/status/market-latency',
  '/v1/markets/health',
  '/v2/markets/health',
  '/v1/nbbo',
  '/v2/nbbo',
  '/v1/nbbo/depth',
  '/v2/nbbo/depth',
  '/v1/recommendations/{marketHashName}',
  '/v1/aggregations/min-prices',
  '/v1/aggregations/max-orders',
  '/v1/arbitrage/opportunities',
  '/v1/liquidity/{marketHashName}',
  '/v2/liquidity/{marketHashName}',
  '/v1/liquidity/summary/{marketHashName}',
  '/v1/liquidity/batch',
  '/v2/liquidity/batch',
  '/v1/liquidity/items',
  '/v1/liquidity/items/manifest',
  '/v1/stream',
  '/v2/stream',
  '/v1/alerts',
  '/v1/alerts/{id}',
  '/v1/alerts/{id}/deliveries',
];

describe('OpenAPI and docs', () => {
  test('/openapi.json is keyless, valid JSON, OpenAPI 3.1, and lists every route with its schemas', async () => {
    const { app } = await buildHarness();
    const response = await app.inject({ url: '/openapi.json' });
    assert.equal(response.statusCode, 200);
    const document = JSON.parse(response.body);
    assert.equal(document.openapi, '3.1.0');
    const documented = Object.keys(document.paths);
    for (const route of ROUTES) assert.ok(documented.includes(route), `${route} is documented`);
    for (const route of documented) {
      const operation = document.paths[route].get ?? document.paths[route].post;
      assert.ok(operation.responses['200'], route);
      assert.ok(operation.responses['429'], route);
    }
    assert.deepEqual(document.paths['/v1/items'].get.security, [{ ApiKey: [] }]);
    assert.equal(document.paths['/v1/markets/health'].get.security, undefined);
    const parameters = document.paths['/v1/items'].get.parameters.map(
      (p: { name: string }) => p.name,
    );
    assert.deepEqual(parameters.sort(), ['markets', 'page', 'perPage', 'search']);
    assert.ok(document.components.securitySchemes.ApiKey);
  });

  test('/docs serves the browsable UI without a key', async () => {
    const { app } = await buildHarness();
    const page = await app.inject({ url: '/docs' });
    assert.equal(page.statusCode, 200);
    assert.match(String(page.headers['content-type']), /text\/html/);
    assert.match(page.body, /swagger/i);
  });

  test('docs can be switched off', async () => {
    const { app } = await buildHarness({ docs: false });
    assert.equal((await app.inject({ url: '/openapi.json' })).statusCode, 404);
  });
});
