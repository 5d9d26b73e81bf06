/**
 * The terminal's keyless routes through app.inject: answers computed from the book as the
 * key-gated routes compute them, bounded sizes, 400 / 404 in the one envelope, the per-IP limit
 * (429 with Retry-After, separate from health's), the page and its cached assets, and
 * `terminal: false` removing all of it.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { MINUTE } from '../domain/clock.ts';
import { auth, buildHarness, KEYS } from '../http/test-support.ts';
import { terminalRoutes } from './index.ts';
import { SEARCH_LIMIT } from './item-routes.ts';

const terminalHarness = (overrides: Parameters<typeof buildHarness>[0] = {}) =>
  buildHarness(overrides, [terminalRoutes]);

const REDLINE = 'AK-47 | Redline (Field-Tested)';

async function quoted() {
  const harness = await terminalHarness();
  const now = harness.clock.now();
  harness.quote('ask', 'cs2-redline-ft', 'skinport', [1234, 1300], now - MINUTE);
  harness.quote('ask', 'cs2-redline-ft', 'buff163', [1200], now - 40 * MINUTE);
  harness.quote('bid', 'cs2-redline-ft', 'csfloat', [1100], now - MINUTE);
  harness.quote('ask', 'cs2-vulcan-mw', 'skinport', [9999], now);
  return harness;
}

describe('200', () => {
  test('search: quoted items matching every word prefix, with best ask, bid, spread, markets', async () => {
    const { app } = await quoted();
    const response = await app.inject({ url: '/terminal/api/search?game=cs2&q=ak%20red' });
    assert.equal(response.statusCode, 200);
    assert.deepEqual(response.json().results, [
      {
        canonicalItemId: 'cs2-redline-ft',
        name: REDLINE,
        game: 'cs2',
        bestAsk: {
          market: 'buff163',
          price: 1200,
          updatedAt: '2026-11-01T11:20:00.000Z',
          isStale: true,
        },
        bestBid: {
          market: 'csfloat',
          price: 1100,
          updatedAt: '2026-11-01T11:59:00.000Z',
          isStale: false,
        },
        spreadBps: 909,
        marketCount: 3,
      },
    ]);
    const ak = await app.inject({ url: '/terminal/api/search?game=cs2&q=ak' });
    assert.deepEqual(
      ak.json().results.map((row: { name: string }) => row.name),
      [REDLINE, 'AK-47 | Vulcan (Minimal Wear)'],
      'unquoted items are left out',
    );
  });

  test('item: facts, pricing, NBBO, depth and suggestion equal the key-gated answers', async () => {
    const { app } = await quoted();
    const response = await app.inject({
      url: `/terminal/api/item?game=cs2&name=${encodeURIComponent(REDLINE)}`,
    });
    assert.equal(response.statusCode, 200);
    const body = response.json();
    assert.equal(body.item.id, 'cs2-redline-ft');
    assert.equal(body.staleAfterSeconds, 1800);
    const name = encodeURIComponent(REDLINE);
    const keyed = async (url: string) =>
      (await app.inject({ url, headers: auth(KEYS.enterprise) })).json();
    assert.deepEqual(body.pricing, await keyed(`/v1/pricing/${name}`));
    assert.deepEqual(body.nbbo, await keyed(`/v1/nbbo?market_hash_name=${name}`));
    assert.deepEqual(body.depth, await keyed(`/v1/nbbo/depth?market_hash_name=${name}&depth=20`));
    assert.deepEqual(body.recommendation, await keyed(`/v1/recommendations/${name}`));
    assert.deepEqual(body.liquidity, await keyed(`/v1/liquidity/${name}`));
    assert.deepEqual(body.listings, await keyed(`/v1/pricing/${name}/listings?limit=10`));
    assert.equal(
      body.pricing.markets.find((q: { market: string }) => q.market === 'buff163').isStale,
      true,
    );
  });

  test('markets board: health rows with 48 bars, freshness and latency per market', async () => {
    const { app } = await quoted();
    const response = await app.inject({ url: '/terminal/api/markets?game=cs2' });
    assert.equal(response.statusCode, 200);
    const body = response.json();
    assert.ok(body.health.length > 0);
    assert.ok(body.health.every((row: { healthBars: unknown[] }) => row.healthBars.length === 48));
    assert.deepEqual(
      body.freshness.markets.map((row: { market: string }) => row.market),
      body.health.map((row: { id: string }) => row.id),
    );
    assert.equal(body.latency.window_hours, 24);
  });

  test('arbitrage: the cs2 opportunities with the API defaults, at most 25', async () => {
    const { app, quote, clock } = await terminalHarness();
    quote('ask', 'cs2-asiimov-ft', 'skinport', [10_000], clock.now());
    quote('bid', 'cs2-asiimov-ft', 'csfloat', [20_000], clock.now());
    const response = await app.inject({ url: '/terminal/api/arbitrage' });
    assert.equal(response.statusCode, 200);
    const keyed = await app.inject({
      url: '/v1/arbitrage/opportunities?limit=25',
      headers: auth(KEYS.enterprise),
    });
    assert.deepEqual(response.json(), keyed.json());
    assert.equal(response.json().opportunities.length, 1);
  });

  test('search answers at most SEARCH_LIMIT rows whatever the match count', async () => {
    const { app, quote } = await terminalHarness();
    for (const id of [
      'cs2-redline-ft',
      'cs2-asiimov-ft',
      'cs2-karambit-doppler-fn',
      'cs2-vulcan-mw',
    ]) {
      quote('ask', id, 'skinport', [100]);
    }
    const response = await app.inject({ url: '/terminal/api/search?game=cs2&q=a' });
    assert.ok(response.json().results.length <= SEARCH_LIMIT);
  });
});

describe('400 and 404', () => {
  test('search without q, with an empty or overlong q, or without a game is refused', async () => {
    const { app } = await quoted();
    for (const url of [
      '/terminal/api/search?game=cs2',
      '/terminal/api/search?game=cs2&q=',
      `/terminal/api/search?game=cs2&q=${'a'.repeat(101)}`,
      '/terminal/api/search?q=ak',
      '/terminal/api/search?game=dota&q=ak',
    ]) {
      const response = await app.inject({ url });
      assert.equal(response.statusCode, 400, url);
      assert.equal(response.json().code, 'INVALID_PARAMETER', url);
    }
  });

  test('history intervals are the three stored tiers only; unknown items are 404', async () => {
    const { app } = await quoted();
    const name = encodeURIComponent(REDLINE);
    const bad = await app.inject({
      url: `/terminal/api/history?game=cs2&name=${name}&interval=1m&listingType=SELL_OFFER`,
    });
    assert.equal(bad.statusCode, 400);
    const unknown = await app.inject({ url: '/terminal/api/item?game=cs2&name=Nope' });
    assert.equal(unknown.statusCode, 404);
    assert.equal(unknown.json().code, 'NOT_FOUND');
  });
});

describe('429', () => {
  test('the per-IP limit refuses past terminalPerMinute, apart from health, and reopens', async () => {
    const { app, clock } = await terminalHarness({ terminalPerMinute: 3 });
    const url = '/terminal/api/markets?game=cs2';
    const from = (ip: string) => app.inject({ url, remoteAddress: ip });
    for (let i = 0; i < 3; i += 1) assert.equal((await from('10.0.0.1')).statusCode, 200);
    const refused = await from('10.0.0.1');
    assert.equal(refused.statusCode, 429);
    assert.equal(refused.json().code, 'RATE_LIMITED');
    assert.ok(Number(refused.headers['retry-after']) > 0);
    assert.equal(refused.headers['x-ratelimit-limit'], undefined);
    assert.equal((await from('10.0.0.2')).statusCode, 200, 'another IP');
    const health = await app.inject({ url: '/v1/markets/health', remoteAddress: '10.0.0.1' });
    assert.equal(health.statusCode, 200, 'health keeps its own allowance');
    clock.advance(MINUTE);
    assert.equal((await from('10.0.0.1')).statusCode, 200);
  });
});

describe('page and assets', () => {
  test('/ is the page (no-cache, ETag, 304); assets are immutable and gzip when accepted', async () => {
    const { app } = await terminalHarness();
    const page = await app.inject({ url: '/' });
    assert.equal(page.statusCode, 200);
    assert.match(String(page.headers['content-type']), /text\/html/);
    assert.equal(page.headers['cache-control'], 'no-cache');
    assert.match(page.body, /Credit it as the source/);
    const again = await app.inject({
      url: '/',
      headers: { 'if-none-match': String(page.headers.etag) },
    });
    assert.equal(again.statusCode, 304);
    const script = /src="(\/terminal\/assets\/[^"]+\.js)"/.exec(page.body)![1]!;
    const plain = await app.inject({ url: script });
    assert.equal(plain.statusCode, 200);
    assert.equal(plain.headers['cache-control'], 'public, max-age=31536000, immutable');
    const zipped = await app.inject({ url: script, headers: { 'accept-encoding': 'gzip' } });
    assert.equal(zipped.headers['content-encoding'], 'gzip');
    assert.ok(zipped.rawPayload.length < plain.rawPayload.length / 2);
    const missing = await app.inject({ url: '/terminal/assets/nope.js' });
    assert.equal(missing.statusCode, 404);
  });

  test('an app without the terminal route set serves neither the page nor the routes', async () => {
    const { app } = await buildHarness();
    assert.equal((await app.inject({ url: '/' })).statusCode, 404);
    assert.equal((await app.inject({ url: '/terminal/api/markets?game=cs2' })).statusCode, 404);
  });
});
