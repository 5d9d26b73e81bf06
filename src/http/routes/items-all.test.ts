import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { gunzipSync } from 'node:zlib';
import { ItemsAllCache } from '../items-all-cache.ts';
import { auth, buildHarness, KEYS } from '../test-support.ts';
import { acceptsGzip, etagMatches } from './items-all.ts';

async function built() {
  const harness = await buildHarness();
  harness.quote('ask', 'cs2-redline-ft', 'skinport', [1600]);
  const cache = new ItemsAllCache({
    book: harness.book,
    catalog: harness.deps.catalogs.cs2,
    clock: harness.clock,
  });
  await cache.rebuild();
  cache.close();
  harness.itemsAll.payload = cache.current();
  return harness;
}

const url = '/v1/items/all';

describe('200 / 304', () => {
  test('a bare array with an ETag, plain JSON when gzip is not accepted', async () => {
    const { app } = await built();
    const response = await app.inject({ url, headers: auth(KEYS.enterprise) });
    assert.equal(response.statusCode, 200);
    assert.match(String(response.headers['content-type']), /^application\/json/);
    assert.equal(response.headers['content-encoding'], undefined);
    assert.match(String(response.headers.etag), /^"[\w-]+"$/);
    const rows = response.json();
    assert.equal(rows.length, 5);
    assert.equal(rows[0].id, 'cs2-redline-ft');
    assert.equal(rows[0].priceAggregates.minPrice, 1600);
    assert.equal(rows[1].priceAggregates, null);
    assert.ok(response.headers['x-ratelimit-remaining']);
  });

  test('gzip when accepted: the same bytes compressed', async () => {
    const { app } = await built();
    const plain = await app.inject({ url, headers: auth(KEYS.enterprise) });
    const zipped = await app.inject({
      url,
      headers: { ...auth(KEYS.enterprise), 'accept-encoding': 'br, gzip' },
    });
    assert.equal(zipped.headers['content-encoding'], 'gzip');
    assert.equal(zipped.headers.vary, 'Accept-Encoding');
    assert.equal(gunzipSync(zipped.rawPayload).toString(), plain.body);
  });

  test('If-None-Match with the current ETag is 304 with no body', async () => {
    const { app } = await built();
    const first = await app.inject({ url, headers: auth(KEYS.enterprise) });
    const etag = String(first.headers.etag);
    for (const ifNoneMatch of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
      const again = await app.inject({
        url,
        headers: { ...auth(KEYS.enterprise), 'if-none-match': ifNoneMatch },
      });
      assert.equal(again.statusCode, 304, ifNoneMatch);
      assert.equal(again.body, '');
      assert.equal(again.headers.etag, etag);
    }
    const stale = await app.inject({
      url,
      headers: { ...auth(KEYS.enterprise), 'if-none-match': '"old"' },
    });
    assert.equal(stale.statusCode, 200);
  });
});

describe('503', () => {
  test('before the first build: 503 with Retry-After in the envelope', async () => {
    const { app } = await buildHarness();
    const response = await app.inject({ url, headers: auth(KEYS.enterprise) });
    assert.equal(response.statusCode, 503);
    assert.equal(response.headers['retry-after'], '5');
    assert.equal(response.json().code, 'NOT_READY');
  });
});

describe('403 / 404', () => {
  test('below Enterprise is 403; there is no /v2 form', async () => {
    const { app } = await built();
    assert.equal((await app.inject({ url, headers: auth(KEYS.developer) })).statusCode, 403);
    assert.equal(
      (await app.inject({ url: '/v2/items/all?game=cs2', headers: auth(KEYS.enterprise) }))
        .statusCode,
      404,
    );
  });
});

describe('header parsing', () => {
  test('acceptsGzip honours q=0 and an explicit gzip over *', () => {
    assert.equal(acceptsGzip(undefined), false);
    assert.equal(acceptsGzip('gzip, deflate'), true);
    assert.equal(acceptsGzip('gzip;q=0'), false);
    assert.equal(acceptsGzip('*'), true);
    assert.equal(acceptsGzip('*;q=0, gzip'), true);
    assert.equal(acceptsGzip('gzip;q=0, *'), false);
    assert.equal(acceptsGzip('identity'), false);
  });

  test('etagMatches compares weakly and accepts *', () => {
    assert.equal(etagMatches('"a"', '"a"'), true);
    assert.equal(etagMatches('W/"a"', '"a"'), true);
    assert.equal(etagMatches('"b"', '"a"'), false);
    assert.equal(etagMatches(undefined, '"a"'), false);
  });
});
