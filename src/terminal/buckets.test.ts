/**
 * GET /terminal/api/buckets through app.inject: one item's float / fade / phase buckets equal to
 * the key-gated /v1/attribute-prices/latest answer for that item with every attribute kind, no
 * key needed, 400 / 404 in the one envelope, and the terminal's per-IP limit.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { DOPPLER, FADE, listing, REDLINE } from '../attributes/test-fixtures.ts';
import { filled, harness, q, type Body } from '../http/routes/attribute-test-support.ts';
import { KEYS } from '../http/test-support.ts';
import { terminalRoutes } from './index.ts';

const terminal = async (h: Awaited<ReturnType<typeof harness>>, query: string) => {
  const response = await h.app.inject({ url: `/terminal/api/buckets?${query}` });
  return { status: response.statusCode, body: response.json() as Body, headers: response.headers };
};

const keyedUrl = (name: string) =>
  `/v1/attribute-prices/latest?marketHashName=${q(name)}&attributes=float,fade,tag`;

describe('GET /terminal/api/buckets', () => {
  test('equals the key-gated buckets of the same item, for float, fade and phase items', async () => {
    const h = await harness(false, [terminalRoutes]);
    filled(h);
    for (const item of [REDLINE, FADE, DOPPLER]) {
      const { status, body } = await terminal(h, `name=${q(item.marketHashName)}`);
      assert.equal(status, 200, item.marketHashName);
      const keyed = await h.get(keyedUrl(item.marketHashName), KEYS.developer);
      assert.equal(keyed.status, 200);
      assert.deepEqual(body, keyed.body, item.marketHashName);
      assert.ok(body.items.length > 0, `${item.marketHashName} has buckets`);
    }
  });

  test('serves every attribute kind: phase tags, phase floats and fade ranges', async () => {
    const h = await harness(false, [terminalRoutes]);
    filled(h);
    const doppler = (await terminal(h, `name=${q(DOPPLER.marketHashName)}`)).body;
    const keys = doppler.items[0].buckets.map((b: Body) => b.bucketKey);
    assert.ok(keys.includes('tag:ruby'), keys.join());
    assert.ok(keys.includes('tag:phase-2:float:0.01-0.02'), keys.join());
    const fade = (await terminal(h, `name=${q(FADE.marketHashName)}`)).body;
    const types = fade.items[0].buckets.map((b: Body) => b.attributeTypes.join('+'));
    assert.ok(types.includes('fade'), types.join());
    const redline = (await terminal(h, `name=${q(REDLINE.marketHashName)}`)).body;
    assert.deepEqual(
      redline.items[0].buckets.map((b: Body) => [b.bucketKey, b.askCents, b.askListingCount]),
      [
        ['float:0.15-0.18', 1400, 2],
        ['float:0.27-0.38', 1300, 1],
      ],
    );
  });

  test('follows the book: a new cheaper listing moves the bucket ask', async () => {
    const h = await harness(false, [terminalRoutes]);
    filled(h);
    h.put([listing(REDLINE, 'buff163', 1250, { fetchedAt: h.now, floatValue: 0.16 })]);
    const body = (await terminal(h, `name=${q(REDLINE.marketHashName)}`)).body;
    assert.deepEqual(
      body.items[0].buckets.map((b: Body) => [b.bucketKey, b.askCents]),
      [['float:0.15-0.18', 1250]],
    );
    assert.deepEqual(body, (await h.get(keyedUrl(REDLINE.marketHashName))).body);
  });

  test('an item without buckets: no entries, every market a source gap', async () => {
    const h = await harness(false, [terminalRoutes]);
    const { status, body } = await terminal(h, `name=${q(REDLINE.marketHashName)}`);
    assert.equal(status, 200);
    assert.deepEqual(body.items, []);
    assert.deepEqual(body.sourceGaps, body.markets);
  });

  test('400 without a name, 404 for an unknown item, in the one envelope', async () => {
    const h = await harness(false, [terminalRoutes]);
    const missing = await terminal(h, '');
    assert.equal(missing.status, 400);
    assert.equal(missing.body.code, 'INVALID_PARAMETER');
    const empty = await terminal(h, 'name=');
    assert.equal(empty.status, 400);
    const unknown = await terminal(h, 'name=Nope');
    assert.equal(unknown.status, 404);
    assert.equal(unknown.body.code, 'NOT_FOUND');
  });

  test('counts against the per-IP terminal limit: 429 with Retry-After past it', async () => {
    const h = await harness(false, [terminalRoutes]);
    const url = `/terminal/api/buckets?name=${q(REDLINE.marketHashName)}`;
    let refused = null;
    for (let sent = 0; sent < 200 && !refused; sent += 1) {
      const response = await h.app.inject({ url });
      if (response.statusCode === 429) refused = response;
    }
    assert.ok(refused, 'a 429 within 200 requests');
    assert.ok(Number(refused.headers['retry-after']) > 0);
    assert.equal(refused.json().code, 'RATE_LIMITED');
  });
});
