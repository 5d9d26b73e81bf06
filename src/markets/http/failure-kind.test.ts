import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:net';
import { manualClock, MINUTE } from '../../domain/clock.ts';
import { startLoopback, type Loopback } from '../testing/loopback.ts';
import { CHALLENGE_PAGE } from '../testing/stand-in.ts';
import { createMarketHttp } from './http-client.ts';
import { HttpFailure, type HttpRequest, type MarketHttp } from './market-http.ts';

/**
 * A hang guard only: a loopback answer on a loaded machine may take seconds, and a request cut
 * short by it would be a `timeout` instead of the kind under test. The hang itself is cut at
 * HANG_MS.
 */
const ANSWER_MS = 60_000;
const HANG_MS = 200;

function get(url: string, extra: Partial<HttpRequest> = {}): HttpRequest {
  return { method: 'GET', url, expect: 'json', label: 'kind GET', timeoutMs: ANSWER_MS, ...extra };
}

async function kindOf(http: MarketHttp, request: HttpRequest): Promise<string> {
  try {
    await http
      .channel(request.url, { limits: [{ requests: 100, windowMs: MINUTE }] })
      .send(request);
  } catch (error) {
    assert.ok(error instanceof HttpFailure, `an HttpFailure, got ${String(error)}`);
    return error.kind;
  }
  return 'ok';
}

describe('failure kinds over loopback', () => {
  let server: Loopback;
  let http: MarketHttp;
  let silent: Server;
  const clock = manualClock('2026-11-29T00:00:00Z');

  before(async () => {
    server = await startLoopback();
    silent = createServer((socket) => socket.destroy());
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    http = createMarketHttp({ clock, random: () => 0.5, sleep: async () => {} });
  });
  after(async () => {
    await http.close();
    await server.close();
    await new Promise((resolve) => silent.close(resolve));
  });

  const route = (path: string, status: number, headers: Record<string, string>, body = '') =>
    server.route(`GET ${path}`, () => ({ kind: 'status', status, headers, body }));

  test('a challenge is blocked: the cf-mitigated header, or a Cloudflare "Just a moment..." page', async () => {
    route('/mitigated', 403, { 'cf-mitigated': 'challenge', 'content-type': 'text/html' }, 'x');
    const html = { server: 'cloudflare', 'content-type': 'text/html; charset=UTF-8' };
    route('/moment-503', 503, html, CHALLENGE_PAGE);
    route('/moment-200', 200, html, CHALLENGE_PAGE);
    assert.equal(await kindOf(http, get(`${server.url}/mitigated`)), 'blocked');
    assert.equal(await kindOf(http, get(`${server.url}/moment-503`)), 'blocked');
    assert.equal(await kindOf(http, get(`${server.url}/moment-200`)), 'blocked');
    assert.equal(
      await kindOf(http, get(`${server.url}/moment-200`, { expect: 'text' })),
      'blocked',
    );
  });

  test('the same page without Cloudflare, or a Cloudflare error page, is not a challenge', async () => {
    route('/plain-503', 503, { 'content-type': 'text/html' }, CHALLENGE_PAGE);
    const gateway =
      '<html><head><title>502 Bad Gateway</title></head><body>cloudflare</body></html>';
    route('/cf-502', 502, { server: 'cloudflare', 'content-type': 'text/html' }, gateway);
    route('/cf-200', 200, { server: 'cloudflare', 'content-type': 'text/html' }, gateway);
    assert.equal(await kindOf(http, get(`${server.url}/plain-503`)), 'http_5xx');
    assert.equal(await kindOf(http, get(`${server.url}/cf-502`)), 'http_5xx');
    assert.equal(await kindOf(http, get(`${server.url}/cf-200`)), 'parse');
  });

  test('statuses: 401 and a plain 403 are auth, 404 http_4xx, 500 http_5xx, 429 rate_limited', async () => {
    route('/401', 401, {}, '{"error":"invalid api key"}');
    route('/403', 403, { 'content-type': 'application/json' }, '{"error":"forbidden"}');
    route('/404', 404, {});
    route('/500', 500, {});
    route('/429', 429, { 'retry-after': '3600' });
    assert.equal(await kindOf(http, get(`${server.url}/401`)), 'auth');
    assert.equal(await kindOf(http, get(`${server.url}/403`)), 'auth');
    assert.equal(await kindOf(http, get(`${server.url}/404`)), 'http_4xx');
    assert.equal(await kindOf(http, get(`${server.url}/500`)), 'http_5xx');
    assert.equal(await kindOf(http, get(`${server.url}/429`)), 'rate_limited');
  });

  test('bodies: invalid JSON is parse, a hang is timeout', async () => {
    server.route('GET /bad-json', () => ({ kind: 'text', body: '{"a": [1, 2' }));
    server.route('GET /hang', () => ({ kind: 'hang' }));
    assert.equal(await kindOf(http, get(`${server.url}/bad-json`)), 'parse');
    assert.equal(await kindOf(http, get(`${server.url}/hang`, { timeoutMs: HANG_MS })), 'timeout');
  });

  test('sockets: an unresolvable name is dns, a plain-HTTP server asked for TLS is tls, a reset is network', async () => {
    assert.equal(await kindOf(http, get('http://no-such-market.invalid/prices')), 'dns');
    const plain = new URL(server.url);
    assert.equal(await kindOf(http, get(`https://127.0.0.1:${plain.port}/`)), 'tls');
    const port = (silent.address() as { port: number }).port;
    assert.equal(await kindOf(http, get(`http://127.0.0.1:${port}/`)), 'network');
  });
});
