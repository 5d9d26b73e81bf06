import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { gunzipSync } from 'node:zlib';
import { HOUR } from '../../domain/clock.ts';
import { SNAPSHOT_PAGE_INTERVAL_MS } from './attribute-prices.ts';
import { DOPPLER, FADE, listing, REDLINE } from '../../attributes/test-fixtures.ts';
import { KEYS } from '../test-support.ts';
import { EXTRA, filled, harness, q, type Body } from './attribute-test-support.ts';

describe('GET /v1/attribute-prices/latest 200', () => {
  test('one item, float buckets by default, with the envelope and sourceGaps', async () => {
    const h = await harness();
    filled(h);
    const { status, body } = await h.get(
      `/v1/attribute-prices/latest?marketHashName=${q(REDLINE.marketHashName)}`,
      KEYS.developer,
    );
    assert.equal(status, 200);
    assert.deepEqual(Object.keys(body), [
      'bucketSchemaVersion',
      'markets',
      'currency',
      'asOf',
      'items',
      'nextCursor',
      'sourceGaps',
    ]);
    assert.equal(body.bucketSchemaVersion, 1);
    assert.deepEqual(body.markets, [
      'buff163',
      'steamcommunity',
      'marketcsgo',
      'csfloat',
      'dmarket',
    ]);
    assert.deepEqual(body.sourceGaps, ['steamcommunity', 'marketcsgo', 'dmarket']);
    assert.deepEqual(
      body.items.map((i: Body) => i.market),
      ['buff163', 'csfloat'],
    );
    const buff = body.items[0];
    assert.equal(buff.canonicalItemId, REDLINE.id);
    const { charmTemplate, nameTag, stickerScrape } = buff.buckets[0].dimensions;
    assert.deepEqual([charmTemplate, nameTag, stickerScrape], [null, null, null]);
    assert.deepEqual(
      buff.buckets.map((b: Body) => [b.bucketKey, b.askCents, b.askListingCount, b.bidCents]),
      [
        ['float:0.15-0.18', 1400, 2, 1200],
        ['float:0.27-0.38', 1300, 1, 1200],
      ],
    );
    assert.equal(buff.buckets[0].bucketId, `buff163:${REDLINE.id}:float:0.15-0.18`);
    assert.equal(buff.buckets[0].bucketType, 'attribute');
    assert.equal(buff.buckets[0].attributeType, 'float');
    assert.equal(body.items[1].buckets[0].bidCents, null, 'csfloat has no bid');
    assert.equal(body.items[1].buckets[0].bucketKey, 'float:0.15-0.16');
  });

  test('tag and fade buckets only when asked for; Ruby priced apart from Phase 2', async () => {
    const h = await harness();
    filled(h);
    const url = `/v1/attribute-prices/latest?canonicalItemId=${DOPPLER.id}`;
    const floatOnly = (await h.get(url)).body;
    assert.ok(floatOnly.items[0].buckets.every((b: Body) => b.attributeTypes.join() === 'float'));
    const tags = (await h.get(`${url}&attributes=tag`)).body.items[0].buckets;
    assert.deepEqual(
      tags.map((b: Body) => [b.bucketKey, b.askCents, b.dimensions.variant]),
      [
        ['tag:phase-2', 90_000, 'Phase 2'],
        ['tag:ruby', 600_000, 'Ruby'],
      ],
    );
    const both = (await h.get(`${url}&attributes=tag,float`)).body.items[0].buckets;
    assert.ok(both.some((b: Body) => b.bucketKey === 'tag:ruby:float:0.01-0.02'));
    const fade = (
      await h.get(
        `/v1/attribute-prices/latest?marketHashName=${q(FADE.marketHashName)}&attributes=fade&markets=csfloat,skinport`,
      )
    ).body;
    assert.deepEqual(
      fade.items[0].buckets.map((b: Body) => b.bucketKey),
      ['fade:99-100'],
    );
    assert.deepEqual(fade.sourceGaps, ['skinport']);
  });

  test('the snapshot pages by cursor and never skips or repeats an item', async () => {
    const h = await harness();
    filled(h);
    h.put(
      EXTRA.map((item, i) =>
        listing(item, 'dmarket', 100 + i, { fetchedAt: h.now, floatValue: 0.2 }),
      ),
    );
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const suffix: string = cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`;
      const { status, body } = await h.get(`/v1/attribute-prices/latest?limit=2${suffix}`);
      assert.equal(status, 200);
      const ids: string[] = [...new Set<string>(body.items.map((i: Body) => i.canonicalItemId))];
      assert.ok(ids.length <= 2);
      seen.push(...ids);
      cursor = body.nextCursor;
      pages += 1;
    } while (cursor !== null && pages < 20);
    const expected = [REDLINE, DOPPLER, FADE, ...EXTRA].map((item) => item.id).sort();
    assert.deepEqual(seen, expected);
  });

  test('a snapshot page is prepared bytes: ETag, 304, gzip, rebuilt once buckets change and its interval passed', async () => {
    const h = await harness();
    filled(h);
    const url = '/v1/attribute-prices/latest?limit=2';
    const headers = { authorization: `ApiKey ${KEYS.pro}` };
    const first = await h.app.inject({ url, headers });
    const etag = String(first.headers.etag);
    assert.match(etag, /^"[\w-]+"$/);
    const again = await h.app.inject({ url, headers: { ...headers, 'if-none-match': etag } });
    assert.equal(again.statusCode, 304);
    const gzipped = await h.app.inject({ url, headers: { ...headers, 'accept-encoding': 'gzip' } });
    assert.equal(gzipped.headers['content-encoding'], 'gzip');
    assert.deepEqual(JSON.parse(gunzipSync(gzipped.rawPayload).toString()), first.json());
    h.put([listing(FADE, 'csfloat', 70_000, { fetchedAt: h.now, floatValue: 0.03 })]);
    assert.equal((await h.get(url)).body.asOf, first.json().asOf);
    h.clock.advance(SNAPSHOT_PAGE_INTERVAL_MS);
    const changed = await h.app.inject({ url, headers: { ...headers, 'if-none-match': etag } });
    assert.equal(changed.statusCode, 200);
    assert.notEqual(changed.headers.etag, etag);
  });

  test('buckets whose listings expired are gone', async () => {
    const h = await harness();
    filled(h);
    h.clock.set(h.now + 3 * HOUR);
    const { body } = await h.get(
      `/v1/attribute-prices/latest?marketHashName=${q(REDLINE.marketHashName)}`,
    );
    assert.deepEqual(body.items, []);
    assert.equal(body.sourceGaps.length, 5);
  });
});

describe('GET /v1/markets/buff163/latest', () => {
  test('the same envelope with a single market', async () => {
    const h = await harness();
    filled(h);
    const { status, body } = await h.get(
      `/v1/markets/buff163/latest?marketHashName=${q(REDLINE.marketHashName)}`,
    );
    assert.equal(status, 200);
    assert.equal(body.market, 'buff163');
    assert.equal(body.markets, undefined);
    assert.deepEqual(
      body.items.map((i: Body) => i.market),
      ['buff163'],
    );
    assert.deepEqual(body.sourceGaps, []);
  });

  test('any other market id is 404; Developer keys get 403', async () => {
    const h = await harness();
    assert.equal((await h.get('/v1/markets/csfloat/latest')).status, 404);
    assert.equal((await h.get('/v1/markets/csfloat/history?bucketId=x')).status, 404);
    assert.equal((await h.get('/v1/markets/buff163/latest', KEYS.developer)).status, 403);
  });
});

describe('GET /v1/attribute-prices/latest 400 / 404', () => {
  for (const [query, pattern] of [
    ['attributes=wear', /attributes must be a comma-separated list/],
    ['limit=1001', /limit must not exceed 1000/],
    ['cursor=abc', /cursor must be a nextCursor/],
    ['markets=nowhere', /unknown market ids/],
  ] as const) {
    test(query, async () => {
      const h = await harness();
      const { status, body } = await h.get(`/v1/attribute-prices/latest?${query}`);
      assert.equal(status, 400);
      assert.match(body.message.join(' '), pattern);
    });
  }

  test('unknown item', async () => {
    const h = await harness();
    assert.equal((await h.get('/v1/attribute-prices/latest?marketHashName=Nope')).status, 404);
  });
});
