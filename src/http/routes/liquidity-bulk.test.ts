import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { gunzipSync } from 'node:zlib';
import { MINUTE } from '../../domain/clock.ts';
import { BulkLiquidityCache } from '../../liquidity/bulk-cache.ts';
import { evenSales } from '../../liquidity/test-fixtures.ts';
import { ask } from '../../pricing/snapshot-fixtures.ts';
import { auth, buildHarness, KEYS } from '../test-support.ts';

const URLS = ['/v1/liquidity/items', '/v1/liquidity/items/manifest'];

async function built() {
  const liquidityBulk = {
    cache: null as BulkLiquidityCache | null,
    current: () => liquidityBulk.cache?.current() ?? null,
  };
  const harness = await buildHarness({ liquidityBulk });
  const now = harness.clock.now();
  harness.book.apply({
    sides: [ask({ market: 'csfloat', prices: [1000], fetchedAt: now, itemId: 'cs2-redline-ft' })],
    sales: evenSales('csfloat', 48, now - MINUTE, 30 * MINUTE, 'cs2-redline-ft'),
    listings: [],
  });
  const cache = new BulkLiquidityCache({
    book: harness.book,
    catalog: harness.deps.catalogs.cs2,
    clock: harness.clock,
  });
  liquidityBulk.cache = cache;
  return { ...harness, cache };
}

describe('503 before the first build', () => {
  for (const url of URLS) {
    test(url, async () => {
      const { app } = await built();
      const response = await app.inject({ url, headers: auth(KEYS.enterprise) });
      assert.equal(response.statusCode, 503);
      assert.equal(response.headers['retry-after'], '5');
      assert.equal(response.json().code, 'NOT_READY');
    });
  }

  test('without a bulk provider at all: 503 too', async () => {
    const { app } = await buildHarness();
    const response = await app.inject({ url: URLS[0]!, headers: auth(KEYS.enterprise) });
    assert.equal(response.statusCode, 503);
  });
});

describe('200 / 304', () => {
  test('the map: every catalog item keyed by name, version as ETag', async () => {
    const { app, cache } = await built();
    await cache.rebuild();
    const response = await app.inject({ url: URLS[0]!, headers: auth(KEYS.enterprise) });
    assert.equal(response.statusCode, 200);
    const body = response.json();
    assert.match(body.version, /^\d{13}-1$/);
    assert.equal(response.headers.etag, `"${body.version}"`);
    assert.equal(body.cadence, 'PT10M');
    assert.equal(body.calculatedAt, '2026-11-01T12:00:00.000Z');
    assert.deepEqual(body.markets, [
      'skinport',
      'marketcsgo',
      'dmarket',
      'csfloat',
      'steamcommunity',
    ]);
    assert.equal(body.itemCount, 5);
    assert.equal(Object.keys(body.items).length, 5);
    const redline = body.items['AK-47 | Redline (Field-Tested)'];
    assert.equal(redline.market_hash_name, 'AK-47 | Redline (Field-Tested)');
    assert.equal(redline.liquidityBadge, 'EXTREMELY_LIQUID');
    assert.equal(redline.liquidity, 'extremely_liquid');
    assert.equal(redline.bestMarketToList, 'csfloat');
    assert.deepEqual(redline.variants, {});
    assert.equal(
      body.items['AWP | Asiimov (Field-Tested)'].estimated_sale_time,
      'Insufficient data',
    );
  });

  test('the manifest: the same head without items', async () => {
    const { app, cache } = await built();
    await cache.rebuild();
    const map = (await app.inject({ url: URLS[0]!, headers: auth(KEYS.enterprise) })).json();
    const manifest = await app.inject({ url: URLS[1]!, headers: auth(KEYS.enterprise) });
    const { items, ...head } = map;
    assert.ok(items);
    assert.deepEqual(manifest.json(), head);
  });

  test('If-None-Match with the version (quoted or bare) → 304 with no body', async () => {
    const { app, cache } = await built();
    await cache.rebuild();
    const version = cache.current()!.version;
    for (const url of URLS) {
      for (const tag of [`"${version}"`, version, `W/"${version}"`, `"old", "${version}"`]) {
        const response = await app.inject({
          url,
          headers: { ...auth(KEYS.enterprise), 'if-none-match': tag },
        });
        assert.equal(response.statusCode, 304, `${url} ${tag}`);
        assert.equal(response.body, '');
      }
      const changed = await app.inject({
        url,
        headers: { ...auth(KEYS.enterprise), 'if-none-match': '"1-1"' },
      });
      assert.equal(changed.statusCode, 200);
    }
  });

  test('gzip when accepted: the same bytes compressed', async () => {
    const { app, cache } = await built();
    await cache.rebuild();
    const plain = await app.inject({ url: URLS[0]!, headers: auth(KEYS.enterprise) });
    const zipped = await app.inject({
      url: URLS[0]!,
      headers: { ...auth(KEYS.enterprise), 'accept-encoding': 'gzip' },
    });
    assert.equal(zipped.headers['content-encoding'], 'gzip');
    assert.equal(gunzipSync(zipped.rawPayload).toString(), plain.body);
  });
});

describe('rebuilds', () => {
  test('unchanged data keeps the version; a change moves it', async () => {
    const { cache, clock, book } = await built();
    await cache.rebuild();
    const first = cache.current()!;
    clock.advance(10 * MINUTE);
    await cache.rebuild();
    assert.equal(cache.current(), first);
    book.apply({
      sides: [
        ask({ market: 'dmarket', prices: [990], fetchedAt: clock.now(), itemId: 'cs2-redline-ft' }),
      ],
      sales: evenSales('dmarket', 100, clock.now(), 5 * MINUTE, 'cs2-redline-ft'),
      listings: [],
    });
    await cache.rebuild();
    assert.notEqual(cache.current()!.version, first.version);
    assert.match(cache.current()!.version, /-2$/);
  });

  test('start builds at once and schedules the next build every cadence', async () => {
    const harness = await buildHarness();
    const scheduled: { callback: () => void; ms: number }[] = [];
    const cache = new BulkLiquidityCache({
      book: harness.book,
      catalog: harness.deps.catalogs.cs2,
      clock: harness.clock,
      timers: { set: (callback, ms) => scheduled.push({ callback, ms }), clear: () => {} },
    });
    await cache.start();
    assert.ok(cache.current());
    assert.deepEqual(
      scheduled.map((entry) => entry.ms),
      [600_000],
    );
    cache.close();
  });
});

describe('403', () => {
  test('Pro is refused with feature:liquidity_bulk', async () => {
    const { app, cache } = await built();
    await cache.rebuild();
    for (const url of URLS) {
      const response = await app.inject({ url, headers: auth(KEYS.pro) });
      assert.equal(response.statusCode, 403);
      assert.match(response.json().message, /feature:liquidity_bulk/);
    }
  });
});
