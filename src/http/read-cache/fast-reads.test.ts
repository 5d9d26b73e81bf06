import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { Registry } from 'prom-client';
import { createMemoryRateLimiter } from '../../access/memory-rate-limiter.ts';
import type { RateLimiter } from '../../access/rate-limiter.ts';
import { MINUTE, SECOND } from '../../domain/clock.ts';
import { STALE_AFTER_MS } from '../../domain/freshness.ts';
import type { Game } from '../../domain/games.ts';
import { HttpMetrics } from '../../metrics/http-metrics.ts';
import type { AppDeps } from '../deps.ts';
import { buildApp } from '../app.ts';
import {
  buildHarness,
  DEFAULT_KEYS,
  KEYS,
  syncTestAuthenticator,
  type Harness,
} from '../test-support.ts';

const REDLINE = 'cs2-redline-ft';
const URLS = [
  `/v1/pricing/${REDLINE}`,
  `/v2/pricing/${REDLINE}?game=cs2&markets=csfloat,skinport`,
  `/v1/nbbo?id=${REDLINE}`,
  `/v1/nbbo?market_hash_name=${encodeURIComponent('AK-47 | Redline (Field-Tested)')}`,
  `/v2/nbbo?game=cs2&id=${REDLINE}&markets=csfloat,steamcommunity`,
  `/v1/nbbo/depth?id=${REDLINE}`,
  `/v1/nbbo/depth?id=${REDLINE}&depth=1`,
  `/v2/nbbo/depth?game=cs2&id=${REDLINE}&markets=skinport`,
];

/** Two servers on one book and clock: the fast path in front, and Fastify alone. */
interface Pair {
  harness: Harness;
  fast: { port: number; hits: () => number };
  plain: { port: number };
}

const closers: (() => Promise<unknown>)[] = [];
after(async () => {
  for (const close of closers) await close();
});

async function listen(app: Harness['app']): Promise<number> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  closers.push(() => app.close());
  return (app.server.address() as AddressInfo).port;
}

async function pair(overrides: Partial<AppDeps> = {}): Promise<Pair> {
  const authenticator = syncTestAuthenticator(DEFAULT_KEYS);
  const harness = await buildHarness({ authenticator, ...overrides });
  const at = harness.clock.now();
  harness.quote('ask', REDLINE, 'skinport', [1600], at - MINUTE);
  harness.quote('ask', REDLINE, 'csfloat', [1500, 1550], at - 2 * MINUTE);
  harness.quote('bid', REDLINE, 'csfloat', [1400], at - MINUTE);
  harness.quote('bid', REDLINE, 'steamcommunity', [1450], at - MINUTE);
  const reference = await buildApp({
    ...harness.deps,
    limiter: createMemoryRateLimiter(),
    fastReads: false,
  });
  assert.equal(reference.fastReads?.enabled, false);
  const fastReads = harness.app.fastReads!;
  assert.equal(fastReads.enabled, true);
  return {
    harness,
    fast: { port: await listen(harness.app), hits: () => fastReads.hits },
    plain: { port: await listen(reference) },
  };
}

/** The in-process limiter, counting the decisions it makes. */
function countingLimiter() {
  const inner = createMemoryRateLimiter();
  let count = 0;
  const limiter: RateLimiter & { decisions: () => number } = {
    consume: (...args) => ((count += 1), inner.consume(...args)),
    consumeNow: (...args) => ((count += 1), inner.consumeNow(...args)),
    close: () => inner.close(),
    decisions: () => count,
  };
  return limiter;
}

/** The whole response as sent on the wire, its Date line normalised. */
function raw(port: number, lines: string[], body = ''): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('end', () =>
      resolve(
        Buffer.concat(chunks)
          .toString('latin1')
          .replace(/\r\nDate: [^\r]+/, '\r\nDate: -'),
      ),
    );
    socket.end(`${lines.join('\r\n')}\r\n\r\n${body}`);
  });
}

function request(url: string, key: string | null, extra: string[] = [], method = 'GET') {
  const authLine = key === null ? [] : [`Authorization: ApiKey ${key}`];
  return [
    `${method} ${url} HTTP/1.1`,
    'Host: test',
    'X-Request-ID: fixed-id',
    ...authLine,
    ...extra,
    'Connection: close',
  ];
}

/** Sends the request to both servers; the two answers must be the same bytes. */
async function same(pair: Pair, lines: string[], body = ''): Promise<string> {
  const fromFast = await raw(pair.fast.port, lines, body);
  const fromPlain = await raw(pair.plain.port, lines, body);
  assert.equal(fromFast, fromPlain, lines[0]);
  return fromFast;
}

const status = (response: string) => Number(response.slice(9, 12));

/** Reads `url` until it is cached (the third read is a hit), every answer compared. */
async function warm(pair: Pair, url: string, key: string = KEYS.enterprise) {
  for (let round = 0; round < 3; round += 1) await same(pair, request(url, key));
}

describe('fast path: cache hits answered in front of Fastify, byte for byte the same', () => {
  test('hits on every read and query shape, with and without a monthly cap', async () => {
    const p = await pair();
    for (const key of [KEYS.enterprise, KEYS.developer]) {
      for (const url of URLS) await warm(p, url, key);
      const before = p.fast.hits();
      for (const url of URLS) {
        const answer = await same(p, request(url, key));
        assert.equal(status(answer), 200);
        assert.match(answer, /\r\nx-ratelimit-remaining: \d+\r\n/);
      }
      assert.equal(p.fast.hits() - before, URLS.length, 'every read was a hit');
      p.harness.clock.advance(7);
      for (const url of URLS) assert.equal(status(await same(p, request(url, key))), 200);
    }
    const month = await same(p, request(URLS[0]!, KEYS.developer));
    assert.match(month, /\r\nx-ratelimit-reset-month: \d+\r\ncontent-type: /);
  });

  test('a generated request id has the usual form', async () => {
    const p = await pair();
    await warm(p, URLS[0]!);
    const before = p.fast.hits();
    const answer = await raw(p.fast.port, [
      `GET ${URLS[0]} HTTP/1.1`,
      'Host: t',
      `Authorization: ApiKey ${KEYS.enterprise}`,
      'Connection: close',
    ]);
    assert.equal(p.fast.hits() - before, 1);
    assert.match(answer, /^HTTP\/1\.1 200 OK\r\nx-request-id: req_[A-Za-z0-9]{16}\r\n/);
  });

  test('bad, inactive and missing keys fall through to the 401/403 envelope', async () => {
    const p = await pair();
    await warm(p, URLS[0]!);
    const before = p.fast.hits();
    for (const key of ['sk_test_unknown', KEYS.inactive, KEYS.revoked, null]) {
      const answer = await same(p, request(URLS[0]!, key));
      assert.ok([401, 403].includes(status(answer)), answer);
      assert.doesNotMatch(answer, /x-ratelimit/);
    }
    assert.equal(p.fast.hits(), before);
  });

  test('quota exhausted: 429 from Fastify, each request counted once', async () => {
    const limiter = countingLimiter();
    const p = await pair({ limiter });
    const answers: number[] = [];
    for (let round = 0; round < 6; round += 1) {
      answers.push(status(await same(p, request(URLS[0]!, KEYS.poolA))));
    }
    assert.deepEqual(answers, [200, 200, 200, 429, 429, 429]);
    assert.equal(p.fast.hits(), 1, 'the third read was the one hit');
    assert.equal(limiter.decisions(), 6, 'one quota decision per request');
    p.harness.clock.advance(MINUTE);
    const next = await same(p, request(URLS[0]!, KEYS.poolB));
    assert.equal(status(next), 200, 'the month (5) still has room: 3 + 1 counted');
    assert.match(next, /x-ratelimit-remaining-month: 1\r\n/);
  });

  test('bad parameters, other methods, bodies and Host problems fall through', async () => {
    const p = await pair();
    for (const url of URLS) await warm(p, url);
    const before = p.fast.hits();
    const bad = await same(p, request(`/v1/nbbo/depth?id=${REDLINE}&depth=0`, KEYS.enterprise));
    assert.equal(status(bad), 400);
    assert.equal(status(await same(p, request(URLS[0]!, KEYS.enterprise, [], 'HEAD'))), 200);
    const json = ['Content-Type: application/json', 'Content-Length: 2'];
    await same(p, request(URLS[2]!, KEYS.enterprise, json), '{}');
    const twoHosts = await same(p, request(URLS[0]!, KEYS.enterprise, ['Host: other']));
    assert.equal(status(twoHosts), 400);
    const noHost = request(URLS[0]!, KEYS.enterprise).filter((line) => line !== 'Host: test');
    assert.equal(status(await same(p, noHost)), 400);
    assert.equal(p.fast.hits(), before);
  });

  test('a staleness flip and a book change are misses, answered fresh by Fastify', async () => {
    const p = await pair();
    const fetchedAt = p.harness.clock.now() - MINUTE;
    p.harness.clock.set(fetchedAt + STALE_AFTER_MS - SECOND);
    for (const url of URLS) await warm(p, url);
    let hits = p.fast.hits();
    p.harness.clock.set(fetchedAt + STALE_AFTER_MS + 1);
    for (const url of URLS) await same(p, request(url, KEYS.enterprise));
    assert.equal(p.fast.hits(), hits, 'the flip moment is a miss on every URL');
    assert.match(await same(p, request(URLS[0]!, KEYS.enterprise)), /"isStale":true/);
    hits = p.fast.hits();
    p.harness.quote('ask', REDLINE, 'skinport', [1234]);
    const changed = await same(p, request(URLS[0]!, KEYS.enterprise));
    assert.match(changed, /"price":1234/);
    assert.equal(p.fast.hits(), hits, 'the read after the change was a miss');
  });

  test('a /v2 read of a disabled game falls through to the 503', async () => {
    const disabled = new Set<Game>();
    const p = await pair({ gameReads: { disabled: (game) => disabled.has(game) } });
    await warm(p, URLS[1]!);
    disabled.add('cs2');
    const before = p.fast.hits();
    assert.equal(status(await same(p, request(URLS[1]!, KEYS.enterprise))), 503);
    assert.equal(status(await same(p, request(URLS[0]!, KEYS.enterprise))), 200, '/v1 is fixed');
    assert.equal(p.fast.hits(), before);
  });

  test('hits are timed under the route label', async () => {
    const registry = new Registry();
    const p = await pair({ metrics: new HttpMetrics(registry) });
    await warm(p, URLS[0]!);
    assert.equal(p.fast.hits(), 1);
    // Both servers share the metrics: 3 reads each, the fast server's third one a hit.
    const text = await registry.metrics();
    const count =
      /pricing_http_request_duration_seconds_count\{route="\/v1\/pricing\/:marketHashName",method="GET",status_class="2xx"\} (\d+)/.exec(
        text,
      );
    assert.equal(count?.[1], '6');
  });
});
