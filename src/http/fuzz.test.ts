import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { preparePayload } from './items-all-cache.ts';
import { auth, buildHarness, KEYS } from './test-support.ts';

const PATHS = [
  '/v1/pricing/',
  '/v2/pricing/',
  '/v1/items',
  '/v2/items',
  '/v1/items/all',
  '/v1/status/freshness',
  '/v2/status/market-latency',
  '/v1/markets/health',
  '/v2/markets/health',
  '/v1/nbbo',
  '/v2/nbbo/depth',
  '/v1/recommendations/',
  '/v1/aggregations/min-prices',
  '/v1/arbitrage/opportunities',
  '/v1/',
  '/',
];
const NAMES = [
  'page',
  'perPage',
  'search',
  'markets',
  'game',
  'market_hash_name',
  'id',
  'depth',
  'marketHashNames',
  'sort',
  'x',
  '',
];
const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'OPTIONS', 'PATCH'] as const;
const raw = fc.string({ unit: 'binary', maxLength: 24 });
const encoded = fc.oneof(
  raw.map(encodeURIComponent),
  raw.map((text) => text.replace(/[^\x21-\x7e]/g, '%')),
);

const requestArbitrary = fc.record({
  method: fc.constantFrom(...METHODS),
  path: fc.constantFrom(...PATHS),
  tail: encoded,
  query: fc.array(fc.tuple(fc.constantFrom(...NAMES), encoded), { maxLength: 5 }),
  key: fc.constantFrom(KEYS.enterprise, KEYS.developer, 'nope', ''),
});

describe('fuzz', () => {
  test('random paths and query strings never produce a 5xx and always carry X-Request-ID', async () => {
    const { app, quote, itemsAll, clock } = await buildHarness({ healthPerMinute: 1_000_000 });
    quote('ask', 'cs2-redline-ft', 'skinport', [1500]);
    itemsAll.payload = await preparePayload([], clock.now());
    await fc.assert(
      fc.asyncProperty(requestArbitrary, async ({ method, path, tail, query, key }) => {
        const search = query.map(([name, value]) => `${name}=${value}`).join('&');
        const url = `${path}${path.endsWith('/') ? tail : ''}${search ? `?${search}` : ''}`;
        const response = await app.inject({ method, url, headers: key ? auth(key) : {} });
        assert.ok(
          response.statusCode < 500,
          `${method} ${url} → ${response.statusCode} ${response.body}`,
        );
        assert.ok(response.headers['x-request-id'], url);
        if (response.statusCode >= 400 && method !== 'HEAD') {
          assert.deepEqual(Object.keys(response.json()), [
            'statusCode',
            'message',
            'error',
            'code',
          ]);
        }
      }),
      { numRuns: 300 },
    );
  });
});
