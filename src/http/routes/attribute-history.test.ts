import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { DAY, HOUR, MINUTE } from '../../domain/clock.ts';
import { REDLINE } from '../../attributes/test-fixtures.ts';
import { KEYS } from '../test-support.ts';
import { harness, type Body } from './attribute-test-support.ts';

describe('attribute history', () => {
  test('points oldest first from the history store, on both routes', async () => {
    const h = await harness();
    const id = `buff163:${REDLINE.id}:float:0.15-0.18`;
    const observe = (at: number, askCents: number) => ({
      bucketId: id,
      at,
      askCents,
      bidCents: 1000,
      askListingCount: 2,
      bidOrderCount: 4,
    });
    await h.store.recordBucketObservations([
      observe(h.now - 2 * HOUR, 1500),
      observe(h.now - 2 * HOUR + MINUTE, 1400),
      observe(h.now - HOUR, 1450),
    ]);
    const { status, body } = await h.get(
      `/v1/attribute-prices/history?bucketId=${id}&granularity=1h`,
    );
    assert.equal(status, 200);
    assert.equal(body.granularity, '1h');
    assert.deepEqual(body.markets, ['buff163']);
    const [bucket] = body.items[0].buckets;
    assert.equal(bucket.bucketId, id);
    assert.equal(bucket.sourceItemId, REDLINE.marketHashName);
    assert.equal(bucket.sourceBucketId, 'float:0.15-0.18');
    assert.deepEqual(bucket.dimensions, {
      variant: null,
      float: { min: 0.15, max: 0.18, minInclusive: true, maxInclusive: false },
      fade: null,
      pattern: null,
      paintSeed: null,
      finishCatalog: null,
      sourceTagId: null,
      sourceTagName: null,
      charmTemplate: null,
      nameTag: null,
      stickerScrape: null,
    });
    assert.deepEqual(bucket.points[0], {
      bucketStart: new Date(h.now - 2 * HOUR).toISOString(),
      openAskCents: 1500,
      highAskCents: 1500,
      lowAskCents: 1400,
      closeAskCents: 1400,
      avgAskCents: 1450,
      closeBidCents: 1000,
      askListingCount: 2,
      bidOrderCount: 4,
      firstObservedAt: new Date(h.now - 2 * HOUR).toISOString(),
      lastObservedAt: new Date(h.now - 2 * HOUR + MINUTE).toISOString(),
    });
    assert.equal(bucket.points.length, 2);
    const newest = await h.get(
      `/v1/attribute-prices/history?bucketId=${id}&granularity=1h&limit=1`,
    );
    assert.deepEqual(
      newest.body.items[0].buckets[0].points.map((p: Body) => p.openAskCents),
      [1450],
    );
    const native = await h.get(`/v1/markets/buff163/history?bucketId=${id}`);
    assert.equal(native.body.market, 'buff163');
    assert.equal(native.body.granularity, '10m');
    assert.deepEqual(
      native.body.items[0].buckets[0].points.map((p: Body) => [p.openAskCents, p.closeAskCents]),
      [
        [1500, 1400],
        [1450, 1450],
      ],
    );
  });

  test('400: window over 10,000 buckets, bad ids, a non-buff163 bucket on the native route', async () => {
    const h = await harness();
    const id = `buff163:${REDLINE.id}:float:0.15-0.18`;
    const over = await h.get(
      `/v1/attribute-prices/history?bucketId=${id}&granularity=10m&from=now-70d`,
    );
    assert.equal(over.status, 400);
    assert.match(over.body.message[0], /buckets of 10m; at most 10000/);
    const within = new Date(h.now - 9_999 * 10 * MINUTE).toISOString();
    assert.equal(
      (await h.get(`/v1/attribute-prices/history?bucketId=${id}&granularity=10m&from=${within}`))
        .status,
      200,
    );
    assert.equal((await h.get('/v1/attribute-prices/history?bucketId=garbage')).status, 400);
    assert.equal((await h.get('/v1/attribute-prices/history')).status, 400);
    assert.equal(
      (await h.get(`/v1/attribute-prices/history?bucketId=${id}&granularity=5m`)).status,
      400,
    );
    const csfloat = `csfloat:${REDLINE.id}:float:0.15-0.16`;
    assert.equal((await h.get(`/v1/markets/buff163/history?bucketId=${csfloat}`)).status, 400);
    assert.equal(
      (await h.get(`/v1/attribute-prices/history?bucketId=${id}&from=now&to=now-${DAY / HOUR}h`))
        .status,
      400,
    );
  });

  test('403 for Developer keys, 404 for an unknown item, 503 without a history store', async () => {
    const h = await harness();
    const id = `buff163:${REDLINE.id}:float:0.15-0.18`;
    assert.equal(
      (await h.get(`/v1/attribute-prices/history?bucketId=${id}`, KEYS.developer)).status,
      403,
    );
    assert.equal(
      (await h.get('/v1/attribute-prices/history?bucketId=buff163:cs2_nothing:tag:ruby')).status,
      404,
    );
    const bare = await harness(false);
    assert.equal((await bare.get(`/v1/attribute-prices/history?bucketId=${id}`)).status, 503);
  });
});
