import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { preparePayload } from '../items-all-cache.ts';
import { auth, buildHarness, KEYS } from '../test-support.ts';

const KEY_GATED = [
  '/v1/pricing/cs2-redline-ft',
  '/v2/pricing/cs2-redline-ft?game=cs2',
  '/v1/items',
  '/v2/items?game=rust',
  '/v1/items/all',
  '/v1/status/freshness',
  '/v2/status/freshness?game=rust',
  '/v1/status/market-latency',
  '/v2/status/market-latency?game=cs2',
];

async function harnessWithQuotes() {
  const harness = await buildHarness();
  harness.quote('ask', 'cs2-redline-ft', 'skinport', [1500]);
  harness.itemsAll.payload = await preparePayload([], harness.clock.now());
  return harness;
}

const QUOTA_HEADERS = ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'];
const MONTH_HEADERS = [
  'x-ratelimit-limit-month',
  'x-ratelimit-remaining-month',
  'x-ratelimit-reset-month',
];

describe('200: plans that include the feature', () => {
  test('the plan matrix: developer and pro get everything but items/all; enterprise gets all', async () => {
    const { app } = await harnessWithQuotes();
    for (const url of KEY_GATED) {
      const bulk = url.startsWith('/v1/items/all');
      for (const [key, allowed] of [
        [KEYS.developer, !bulk],
        [KEYS.pro, !bulk],
        [KEYS.enterprise, true],
      ] as const) {
        const response = await app.inject({ url, headers: auth(key) });
        assert.equal(response.statusCode, allowed ? 200 : 403, `${url} with ${key}`);
      }
    }
  });

  test('Bearer is accepted as well as ApiKey, scheme case-insensitive', async () => {
    const { app } = await harnessWithQuotes();
    for (const authorization of [
      `Bearer ${KEYS.pro}`,
      `apikey ${KEYS.pro}`,
      `BEARER ${KEYS.pro}`,
    ]) {
      const response = await app.inject({ url: '/v1/items', headers: { authorization } });
      assert.equal(response.statusCode, 200, authorization);
    }
  });

  test('quota headers on success; month headers only on capped plans', async () => {
    const { app } = await harnessWithQuotes();
    const developer = await app.inject({ url: '/v1/items', headers: auth(KEYS.developer) });
    for (const name of [...QUOTA_HEADERS, ...MONTH_HEADERS])
      assert.ok(developer.headers[name], name);
    assert.equal(developer.headers['x-ratelimit-limit'], '60');
    assert.equal(developer.headers['x-ratelimit-remaining'], '59');
    assert.equal(developer.headers['x-ratelimit-limit-month'], '10000');
    assert.equal(developer.headers['x-ratelimit-remaining-month'], '9999');
    const enterprise = await app.inject({ url: '/v1/items', headers: auth(KEYS.enterprise) });
    for (const name of QUOTA_HEADERS) assert.ok(enterprise.headers[name], name);
    for (const name of MONTH_HEADERS) assert.equal(enterprise.headers[name], undefined, name);
  });

  test('X-RateLimit-Reset counts the seconds to the end of the UTC minute', async () => {
    const { app, clock } = await harnessWithQuotes();
    clock.advance(45_500);
    const response = await app.inject({ url: '/v1/items', headers: auth(KEYS.pro) });
    assert.equal(response.headers['x-ratelimit-reset'], '15');
  });
});

describe('400 after auth: the game check on /v2', () => {
  test('missing or invalid game is 400 with quota headers', async () => {
    const { app } = await harnessWithQuotes();
    for (const url of [
      '/v2/items',
      '/v2/items?game=dota2',
      '/v2/pricing/x?game=',
      '/v2/status/freshness?game=CS2',
    ]) {
      const response = await app.inject({ url, headers: auth(KEYS.pro) });
      assert.equal(response.statusCode, 400, url);
      assert.deepEqual(response.json().message, ['game must be one of: cs2, rust']);
      assert.ok(response.headers['x-ratelimit-remaining']);
    }
  });
});

describe('401: no usable key', () => {
  test('missing header, unsupported scheme, unknown or revoked key; even without game on /v2', async () => {
    const { app } = await harnessWithQuotes();
    const headers = [
      {},
      { authorization: `Basic ${KEYS.pro}` },
      { authorization: KEYS.pro },
      { authorization: 'ApiKey sk_test_unknown' },
      auth(KEYS.revoked),
    ];
    for (const url of [...KEY_GATED, '/v2/items', '/v2/pricing/x?game=nope']) {
      for (const header of headers) {
        const response = await app.inject({ url, headers: header });
        assert.equal(response.statusCode, 401, `${url} ${JSON.stringify(header)}`);
        assert.deepEqual(response.json(), {
          statusCode: 401,
          message: 'API key invalid or inactive',
          error: 'Unauthorized',
          code: 'UNAUTHORIZED',
        });
        for (const name of QUOTA_HEADERS) assert.equal(response.headers[name], undefined);
      }
    }
  });
});

describe('403: subscription or plan', () => {
  test('an inactive subscription is 403 without quota headers, before the game check', async () => {
    const { app } = await harnessWithQuotes();
    const response = await app.inject({ url: '/v2/items', headers: auth(KEYS.inactive) });
    assert.equal(response.statusCode, 403);
    assert.equal(response.json().message, 'Subscription is not active');
    assert.equal(response.json().code, 'SUBSCRIPTION_INACTIVE');
    assert.equal(response.headers['x-ratelimit-limit'], undefined);
  });

  test('a plan lacking the feature is 403 naming plan and feature, with quota headers', async () => {
    const { app } = await harnessWithQuotes();
    const response = await app.inject({ url: '/v1/items/all', headers: auth(KEYS.pro) });
    assert.equal(response.statusCode, 403);
    assert.deepEqual(response.json(), {
      statusCode: 403,
      message:
        'Your current plan (PRO) does not include access to this feature (feature:items_all).',
      error: 'Forbidden',
      code: 'FEATURE_NOT_AVAILABLE',
    });
    assert.equal(response.headers['x-ratelimit-remaining'], '599');
  });
});

describe('429: quotas pooled per account', () => {
  test('two keys of one account share the minute window; 429 carries Retry-After', async () => {
    const { app, clock } = await harnessWithQuotes();
    clock.advance(20_000);
    const remaining: string[] = [];
    for (const key of [KEYS.poolA, KEYS.poolB, KEYS.poolA]) {
      const response = await app.inject({ url: '/v1/items', headers: auth(key) });
      assert.equal(response.statusCode, 200);
      remaining.push(String(response.headers['x-ratelimit-remaining']));
    }
    assert.deepEqual(remaining, ['2', '1', '0']);
    const refused = await app.inject({ url: '/v1/items', headers: auth(KEYS.poolB) });
    assert.equal(refused.statusCode, 429);
    assert.deepEqual(refused.json(), {
      statusCode: 429,
      message: 'API key minute rate limit exceeded',
      error: 'Too Many Requests',
      code: 'RATE_LIMITED',
    });
    assert.equal(refused.headers['retry-after'], '40');
    assert.equal(refused.headers['x-ratelimit-remaining'], '0');
    assert.equal(refused.headers['x-ratelimit-remaining-month'], '2');
    assert.ok(refused.headers['x-request-id']);
  });

  test('a minute refusal spends no monthly quota; the month cap then refuses with its own message', async () => {
    const { app, clock } = await harnessWithQuotes();
    for (let index = 0; index < 4; index += 1)
      await app.inject({ url: '/v1/items', headers: auth(KEYS.poolA) });
    clock.advance(60_000);
    const next = await app.inject({ url: '/v1/items', headers: auth(KEYS.poolA) });
    assert.equal(next.statusCode, 200);
    assert.equal(next.headers['x-ratelimit-remaining-month'], '1');
    await app.inject({ url: '/v1/items', headers: auth(KEYS.poolB) });
    const capped = await app.inject({ url: '/v1/items', headers: auth(KEYS.poolB) });
    assert.equal(capped.statusCode, 429);
    assert.equal(capped.json().message, 'API key monthly quota exceeded');
    assert.equal(capped.headers['x-ratelimit-remaining-month'], '0');
    assert.ok(Number(capped.headers['retry-after']) > 60);
  });

  test('a plan-gate 403 wins over an exhausted quota', async () => {
    const { app } = await harnessWithQuotes();
    for (let index = 0; index < 3; index += 1)
      await app.inject({ url: '/v1/items', headers: auth(KEYS.poolA) });
    const response = await app.inject({ url: '/v1/items/all', headers: auth(KEYS.poolA) });
    assert.equal(response.statusCode, 403);
    assert.equal(response.headers['x-ratelimit-remaining'], '0');
  });
});
