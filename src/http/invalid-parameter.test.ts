import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { auth, buildHarness, KEYS } from './test-support.ts';

const ITEM = encodeURIComponent('AK-47 | Redline (Field-Tested)');

describe('every INVALID_PARAMETER error carries an array of sentences', () => {
  test('checks made in code and by the schema use the conventions wording', async () => {
    const { app } = await buildHarness();
    const cases: [string, string[]][] = [
      [
        `/v1/nbbo/depth?market_hash_name=${ITEM}&depth=Infinity`,
        ['depth must be an integer number'],
      ],
      [`/v2/nbbo/depth?game=cs2&id=cs2-redline-ft&depth=51`, ['depth must not exceed 50']],
      ['/v2/items', ['game must be one of: cs2, rust']],
      ['/v1/items?markets=,', ['markets should not be empty']],
      ['/v1/nbbo', ['market_hash_name or id is required']],
      ['/v1/aggregations/min-prices?ids=nope', ['none of the requested items could be resolved']],
    ];
    for (const [url, message] of cases) {
      const response = await app.inject({ url, headers: auth(KEYS.enterprise) });
      assert.equal(response.statusCode, 400, url);
      assert.deepEqual(
        response.json(),
        { statusCode: 400, message, error: 'Bad Request', code: 'INVALID_PARAMETER' },
        url,
      );
    }
  });

  test('errors the framework raises (bad URL, body too large, bad JSON) too', async () => {
    const { app } = await buildHarness();
    const responses = [
      await app.inject({ url: '/v1/pricing/%E0%A4%A', headers: auth(KEYS.pro) }),
      await app.inject({
        method: 'POST',
        url: '/v1/nope',
        payload: JSON.stringify({ pad: 'x'.repeat(70_000) }),
        headers: { 'content-type': 'application/json' },
      }),
      await app.inject({
        method: 'POST',
        url: '/v1/nope',
        payload: '{',
        headers: { 'content-type': 'application/json' },
      }),
    ];
    assert.deepEqual(
      responses.map((response) => response.statusCode),
      [400, 413, 400],
    );
    for (const response of responses) {
      const body = response.json();
      assert.equal(body.code, 'INVALID_PARAMETER');
      assert.ok(Array.isArray(body.message) && body.message.length === 1, response.body);
    }
  });
});
