import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { manualClock, MINUTE, SECOND } from '../../domain/clock.ts';
import { startLoopback, type Loopback } from '../testing/loopback.ts';
import { createMarketHttp, USER_AGENT } from './http-client.ts';
import { HttpFailure, type HttpRequest, type MarketHttp } from './market-http.ts';

function get(url: string, extra: Partial<HttpRequest> = {}): HttpRequest {
  return { method: 'GET', url, expect: 'json', label: 'test GET', ...extra };
}

async function failureOf(promise: Promise<unknown>): Promise<HttpFailure> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof HttpFailure, `an HttpFailure, got ${String(error)}`);
    return error;
  }
  assert.fail('expected a failure');
}

describe('market HTTP client over loopback', () => {
  let server: Loopback;
  let http: MarketHttp;
  const clock = manualClock('2026-11-24T00:00:00Z');
  const sleeps: number[] = [];
  const open = { limits: [{ requests: 1000, windowMs: MINUTE }] };

  before(async () => {
    server = await startLoopback();
    http = createMarketHttp({
      clock,
      random: () => 0.5,
      sleep: async (ms) => {
        sleeps.push(ms);
        clock.advance(ms);
      },
    });
  });
  after(async () => {
    await http.close();
    await server.close();
  });

  test('decompresses Brotli and names the project in User-Agent', async () => {
    server.route('GET /br', () => ({ kind: 'json', body: { hello: 'world', n: [1, 2, 3] } }));
    const response = await http.channel('br', open).send(get(`${server.url}/br`));
    assert.deepEqual(response.body, { hello: 'world', n: [1, 2, 3] });
    const seen = server.received.at(-1)!;
    assert.equal(seen.headers['user-agent'], USER_AGENT);
    assert.match(String(seen.headers['accept-encoding']), /\bbr\b/);
  });

  // The stand-in never answers: without the 150 ms request timeout the send would hang until
  // the test's own limit (a hang guard, not a measure of speed) fails it.
  test(
    'a hang past the timeout fails as timeout after its retries',
    { timeout: 120_000 },
    async () => {
      server.route('GET /hang', () => ({ kind: 'hang' }));
      const before = server.received.length;
      const failure = await failureOf(
        http.channel('hang', open).send(get(`${server.url}/hang`, { timeoutMs: 150 })),
      );
      assert.equal(failure.kind, 'timeout');
      assert.equal(server.received.length - before, 3, 'three attempts');
    },
  );

  test('a body over the size cap fails as too_large', async () => {
    server.route('GET /big', () => ({ kind: 'text', body: 'x'.repeat(50_000) }));
    const failure = await failureOf(
      http
        .channel('big', open)
        .send(get(`${server.url}/big`, { maxBytes: 10_000, expect: 'text' })),
    );
    assert.equal(failure.kind, 'too_large');
  });

  test('HTML and truncated JSON are parse failures, never data', async () => {
    server.route('GET /html', () => ({ kind: 'html' }));
    server.route('GET /cut', () => ({
      kind: 'truncate',
      body: '{"items":[{"a":1},{"a":2}]}',
      keep: 12,
    }));
    const channel = http.channel('garbage', open);
    assert.equal((await failureOf(channel.send(get(`${server.url}/html`)))).kind, 'parse');
    assert.equal((await failureOf(channel.send(get(`${server.url}/cut`)))).kind, 'parse');
  });

  test('5xx is retried with jittered backoff and then succeeds', async () => {
    let calls = 0;
    server.route('GET /flaky', () =>
      ++calls < 3 ? { kind: 'status', status: 503 } : { kind: 'json', body: { ok: true } },
    );
    sleeps.length = 0;
    const response = await http.channel('flaky', open).send(get(`${server.url}/flaky`));
    assert.deepEqual(response.body, { ok: true });
    assert.equal(response.attempts, 3);
    assert.deepEqual(sleeps, [375, 750], 'half fixed, half random (random = 0.5), doubling');
  });

  test('a short Retry-After is waited out; a long one fails and blocks the budget', async () => {
    let calls = 0;
    server.route('GET /slow-down', () =>
      ++calls === 1
        ? { kind: 'status', status: 429, headers: { 'retry-after': '2' } }
        : { kind: 'json', body: [] },
    );
    sleeps.length = 0;
    await http.channel('short', open).send(get(`${server.url}/slow-down`));
    assert.deepEqual(sleeps, [2_000]);

    server.route('GET /go-away', () => ({
      kind: 'status',
      status: 429,
      headers: { 'retry-after': '120' },
    }));
    const channel = http.channel('long', open);
    const before = server.received.length;
    const failure = await failureOf(channel.send(get(`${server.url}/go-away`)));
    assert.equal(failure.kind, 'rate_limited');
    assert.equal(failure.retryAfterMs, 120_000);
    assert.equal(server.received.length - before, 1, 'not retried');
    assert.equal(channel.state().blockedUntil, clock.now() + 120_000);
    const blocked = await failureOf(channel.send(get(`${server.url}/go-away`)));
    assert.equal(blocked.kind, 'rate_limited', 'nothing is sent before Retry-After passes');
    assert.match(blocked.message, /waiting out its Retry-After \(120 s more\)/);
    assert.equal(server.received.length - before, 1);
  });

  test('conditional requests: a 304 returns the stored body', async () => {
    server.route('GET /etag', (request) =>
      request.headers['if-none-match'] === '"v1"'
        ? { kind: 'status', status: 304 }
        : { kind: 'json', body: { version: 1 }, headers: { etag: '"v1"' } },
    );
    const channel = http.channel('etag', open);
    const request = get(`${server.url}/etag`, { conditional: true });
    const first = await channel.send(request);
    assert.equal(first.notModified, false);
    const second = await channel.send(request);
    assert.equal(second.notModified, true);
    assert.deepEqual(second.body, { version: 1 });
    assert.equal(server.received.at(-1)!.headers['if-none-match'], '"v1"');
  });

  test('401 and 403 are auth failures and are not retried', async () => {
    server.route('GET /private', () => ({ kind: 'status', status: 403, body: 'forbidden' }));
    const before = server.received.length;
    const failure = await failureOf(http.channel('auth', open).send(get(`${server.url}/private`)));
    assert.equal(failure.kind, 'auth');
    assert.equal(server.received.length - before, 1);
  });

  test('a redirect is not followed: it fails as http_4xx and names where it points', async () => {
    const target = 'https://s3.example.test/export/v1/prices/730.json';
    server.route('GET /moved', () => ({
      kind: 'status',
      status: 301,
      headers: { location: target },
    }));
    const before = server.received.length;
    const failure = await failureOf(http.channel('moved', open).send(get(`${server.url}/moved`)));
    assert.equal(failure.kind, 'http_4xx');
    assert.match(failure.message, /HTTP 301, redirected to https:\/\/s3\.example\.test\/export/);
    assert.equal(
      server.received.length - before,
      1,
      'one request, no retry, nothing fetched there',
    );
  });

  test('a refused connection is a network failure and gives its budget back', async () => {
    const closed = await startLoopback();
    const url = `${closed.url}/nothing`;
    await closed.close();
    const channel = http.channel('refused', {
      limits: [{ requests: 2, windowMs: MINUTE }],
      maxQueueMs: 0,
    });
    for (let i = 0; i < 2; i += 1) {
      const failure = await failureOf(channel.send(get(url)));
      assert.equal(failure.kind, 'network', 'never budget: nothing reached the upstream');
      assert.equal(failure.reachedUpstream, false);
    }
    assert.deepEqual(channel.state().used, [0]);
  });
});

describe('circuit breaker over loopback', () => {
  let server: Loopback;
  let breakerHttp: MarketHttp;
  const clock = manualClock('2026-11-24T00:00:00Z');
  const open = { limits: [{ requests: 1000, windowMs: MINUTE }] };

  before(async () => {
    server = await startLoopback();
    breakerHttp = createMarketHttp({
      clock,
      sleep: async () => undefined,
      retry: { maxAttempts: 1, baseDelayMs: 1, maxDelayMs: 1, maxRetryAfterMs: 0 },
      breaker: { failureThreshold: 2, cooldownMs: 30 * SECOND, maxCooldownMs: 5 * MINUTE },
    });
  });
  after(async () => {
    await breakerHttp.close();
    await server.close();
  });

  test('the circuit opens after repeated failures, then lets one probe through', async () => {
    let healthy = false;
    server.route('GET /down', () =>
      healthy ? { kind: 'json', body: { up: true } } : { kind: 'status', status: 500 },
    );
    const channel = breakerHttp.channel('breaker', open);
    const once = get(`${server.url}/down`);
    const request = { ...once, label: 'breaker' };
    const before = server.received.length;
    await failureOf(channel.send(request));
    assert.equal(channel.state().breaker, 'closed', 'one failure is not enough');
    await failureOf(channel.send(request));
    assert.equal(channel.state().breaker, 'open');
    const sent = server.received.length - before;
    const blocked = await failureOf(channel.send(request));
    assert.equal(blocked.kind, 'circuit_open');
    assert.match(
      blocked.message,
      /circuit open for 30 s more after repeated failures; last: .*HTTP 500/,
    );
    assert.equal(server.received.length - before, sent, 'nothing sent while open');

    clock.advance(30 * SECOND);
    healthy = true;
    const probe = await channel.send(request);
    assert.deepEqual(probe.body, { up: true });
    assert.equal(channel.state().breaker, 'closed');
  });

  test('a failed probe opens the circuit again for twice the cooldown', async () => {
    server.route('GET /still-down', () => ({ kind: 'status', status: 502 }));
    const channel = breakerHttp.channel('breaker-2', open);
    const request = get(`${server.url}/still-down`);
    await failureOf(channel.send(request));
    await failureOf(channel.send(request));
    clock.advance(30 * SECOND);
    const probe = await failureOf(channel.send(request));
    assert.equal(probe.kind, 'http_5xx');
    clock.advance(59 * SECOND);
    assert.equal((await failureOf(channel.send(request))).kind, 'circuit_open');
    clock.advance(1 * SECOND);
    assert.equal((await failureOf(channel.send(request))).kind, 'http_5xx', 'probe at 60 s');
  });
});

describe('request budget over loopback', () => {
  test('a market limited to N requests per window receives at most N', async () => {
    const server = await startLoopback();
    server.route('GET /prices', () => ({ kind: 'json', body: [] }));
    const clock = manualClock('2026-11-24T00:00:00Z');
    const http = createMarketHttp({ clock, sleep: async () => undefined });
    try {
      const channel = http.channel('skinport-like', {
        limits: [{ requests: 8, windowMs: 5 * MINUTE }],
        maxQueueMs: 0,
      });
      const request = get(`${server.url}/prices`);
      const results = await Promise.allSettled(
        Array.from({ length: 20 }, () => channel.send(request)),
      );
      assert.equal(server.received.length, 8, 'the ninth request is never sent');
      const refused = results.filter((r) => r.status === 'rejected');
      assert.equal(refused.length, 12);
      for (const result of refused) {
        assert.equal(((result as PromiseRejectedResult).reason as HttpFailure).kind, 'budget');
      }
      clock.advance(5 * MINUTE - 1);
      await failureOf(channel.send(request));
      assert.equal(server.received.length, 8, 'still inside the window');
      clock.advance(1);
      await channel.send(request);
      assert.equal(server.received.length, 9, 'one token back, one window after it was spent');
    } finally {
      await http.close();
      await server.close();
    }
  });
});
