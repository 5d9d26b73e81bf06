import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import pino from 'pino';
import { auth, buildHarness, KEYS } from './test-support.ts';

const ENVELOPE_KEYS = ['statusCode', 'message', 'error', 'code'];

function assertEnvelope(body: Record<string, unknown>, status: number) {
  assert.deepEqual(Object.keys(body), ENVELOPE_KEYS);
  assert.equal(body.statusCode, status);
  assert.ok(typeof body.message === 'string' || Array.isArray(body.message));
}

describe('X-Request-ID', () => {
  test('generated as req_ + 16 characters on every kind of response', async () => {
    const { app } = await buildHarness();
    const requests = [
      { url: '/v1/items', headers: auth(KEYS.pro) },
      { url: '/v1/items' },
      { url: '/v1/nope' },
      { url: '/v1/items', method: 'DELETE' as const },
      { url: '/v1/pricing/%E0%A4%A' },
      { url: '/v1/markets/health' },
      { url: '/openapi.json' },
    ];
    for (const request of requests) {
      const response = await app.inject(request);
      assert.match(String(response.headers['x-request-id']), /^req_[A-Za-z0-9]{16}$/, request.url);
    }
  });

  test('a sane client id is echoed; anything else is replaced', async () => {
    const { app } = await buildHarness();
    const echoed = await app.inject({
      url: '/v1/nope',
      headers: { 'x-request-id': 'client-Trace_42' },
    });
    assert.equal(echoed.headers['x-request-id'], 'client-Trace_42');
    for (const sent of ['x'.repeat(65), 'has space', 'semi;colon', '']) {
      const replaced = await app.inject({ url: '/v1/nope', headers: { 'x-request-id': sent } });
      assert.match(String(replaced.headers['x-request-id']), /^req_/);
    }
  });
});

describe('404 / 405', () => {
  test('unknown route: 404 envelope naming method and path', async () => {
    const { app } = await buildHarness();
    const response = await app.inject({ url: '/v1/nope?x=1', headers: auth(KEYS.pro) });
    assert.equal(response.statusCode, 404);
    assert.deepEqual(response.json(), {
      statusCode: 404,
      message: 'Cannot GET /v1/nope',
      error: 'Not Found',
      code: 'NOT_FOUND',
    });
  });

  test('known path, wrong method: 405 with Allow, before the body is read or auth runs', async () => {
    const { app } = await buildHarness();
    for (const url of ['/v1/items', '/v1/pricing/anything', '/v2/markets/health']) {
      const response = await app.inject({
        method: 'POST',
        url,
        payload: '{not json',
        headers: { 'content-type': 'application/json' },
      });
      assert.equal(response.statusCode, 405, url);
      assert.equal(response.headers.allow, 'GET, HEAD');
      assertEnvelope(response.json(), 405);
      assert.equal(response.json().code, 'METHOD_NOT_ALLOWED');
    }
  });

  test('HEAD on a GET route runs the same gate', async () => {
    const { app } = await buildHarness();
    assert.equal((await app.inject({ method: 'HEAD', url: '/v1/items' })).statusCode, 401);
    assert.equal(
      (await app.inject({ method: 'HEAD', url: '/v1/items', headers: auth(KEYS.pro) })).statusCode,
      200,
    );
  });
});

describe('400 / 413 / 415 for bad input', () => {
  test('malformed percent-encoding in the path is 400', async () => {
    const { app } = await buildHarness();
    const response = await app.inject({ url: '/v1/pricing/%E0%A4%A', headers: auth(KEYS.pro) });
    assert.equal(response.statusCode, 400);
    assertEnvelope(response.json(), 400);
  });

  test('malformed encoding in the query is not an error by itself', async () => {
    const { app } = await buildHarness();
    const response = await app.inject({
      url: '/v1/items?search=%E0%A4%A',
      headers: auth(KEYS.pro),
    });
    assert.equal(response.statusCode, 200);
  });

  test('bodies on unknown paths: too large is 413, bad JSON 400, both in the envelope', async () => {
    const { app } = await buildHarness();
    const large = await app.inject({
      method: 'POST',
      url: '/v1/nope',
      payload: JSON.stringify({ pad: 'x'.repeat(70_000) }),
      headers: { 'content-type': 'application/json' },
    });
    assert.equal(large.statusCode, 413);
    assertEnvelope(large.json(), 413);
    const broken = await app.inject({
      method: 'POST',
      url: '/v1/nope',
      payload: '{',
      headers: { 'content-type': 'application/json' },
    });
    assert.equal(broken.statusCode, 400);
    assertEnvelope(broken.json(), 400);
  });

  test('a body on a GET is ignored', async () => {
    const { app } = await buildHarness();
    const response = await app.inject({
      url: '/v1/items',
      payload: '{',
      headers: { ...auth(KEYS.pro), 'content-type': 'application/xml' },
    });
    assert.equal(response.statusCode, 200);
  });
});

describe('500', () => {
  test('an internal failure is a 500 envelope without details; the log has the request id', async () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const { app } = await buildHarness({
      logger: pino({ level: 'error' }, sink),
      authenticator: {
        authenticate: async () => {
          throw new Error('store exploded: secret detail');
        },
      },
    });
    const response = await app.inject({ url: '/v1/items', headers: auth(KEYS.pro) });
    assert.equal(response.statusCode, 500);
    assert.deepEqual(response.json(), {
      statusCode: 500,
      message: 'Internal server error',
      error: 'Internal Server Error',
      code: 'INTERNAL',
    });
    const id = String(response.headers['x-request-id']);
    assert.match(id, /^req_/);
    const logged = lines
      .map((line) => JSON.parse(line))
      .find((entry) => entry.msg === 'internal error');
    assert.equal(logged?.requestId, id);
    assert.match(logged?.err?.message ?? '', /store exploded/);
  });
});
