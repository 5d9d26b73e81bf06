import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createAccessService } from '../../access/access-service.ts';
import { accessFixture } from '../../access/access-test-fixture.ts';
import { createMemoryRateLimiter } from '../../access/memory-rate-limiter.ts';
import { auth, buildHarness } from '../test-support.ts';

const URL = '/v1/pricing/cs2-redline-ft';

/** The real access service and in-process limiter: the gate's path without promises. */
async function realGate(plan: string, perMinute?: number) {
  const { admin, store } = await accessFixture();
  await admin.createAccount('acme', plan, perMinute === undefined ? {} : { perMinute });
  const { key, id } = await admin.createKey({ accountName: 'acme' });
  const authenticator = createAccessService({ store });
  const limiter = createMemoryRateLimiter();
  const harness = await buildHarness({ authenticator, limiter });
  harness.quote('ask', 'cs2-redline-ft', 'skinport', [1500]);
  return { harness, key, id, authenticator, limiter, revoke: admin.revokeKey };
}

describe('key gate: cached keys pass without waiting, with the same answers', () => {
  test('the first request loads the key; later ones are decided in-process', async () => {
    const { harness, key, authenticator } = await realGate('developer');
    const now = harness.clock.now();
    assert.equal(authenticator.authenticateNow(`ApiKey ${key}`, '127.0.0.1', now), null);
    const first = await harness.app.inject({ url: URL, headers: auth(key) });
    assert.equal(first.statusCode, 200);
    const cached = authenticator.authenticateNow(`ApiKey ${key}`, '127.0.0.1', now);
    assert.ok(cached?.ok);
    assert.equal(
      authenticator.authenticateNow(`ApiKey ${key}`, '127.0.0.1', now),
      cached,
      'the same success object: nothing built per request',
    );
    const second = await harness.app.inject({ url: URL, headers: auth(key) });
    assert.equal(second.statusCode, 200);
    assert.equal(second.headers['x-ratelimit-limit'], '60');
    assert.equal(second.headers['x-ratelimit-remaining'], '58');
    assert.equal(second.headers['x-ratelimit-limit-month'], '10000');
    assert.equal(second.headers['x-ratelimit-remaining-month'], '9998');
  });

  test('the minute quota refuses the request past the limit with 429 and Retry-After', async () => {
    const { harness, key } = await realGate('developer', 2);
    for (const expected of [200, 200, 429, 429]) {
      const response = await harness.app.inject({ url: URL, headers: auth(key) });
      assert.equal(response.statusCode, expected);
      if (expected === 429) {
        assert.equal(response.json().code, 'RATE_LIMITED');
        assert.equal(response.headers['x-ratelimit-remaining'], '0');
        assert.ok(Number(response.headers['retry-after']) >= 1);
      }
    }
  });

  test('a plan without the feature gets 403 with quota headers; a bad key 401 without', async () => {
    const { harness, key } = await realGate('developer');
    const bulk = await harness.app.inject({ url: '/v1/items/all', headers: auth(key) });
    await harness.app.inject({ url: '/v1/items/all', headers: auth(key) });
    const again = await harness.app.inject({ url: '/v1/items/all', headers: auth(key) });
    assert.equal(bulk.statusCode, 403);
    assert.equal(again.statusCode, 403);
    assert.equal(again.headers['x-ratelimit-remaining'], '57');
    // A random key ends in 'x' one time in 62: the wrong key must differ from it.
    const wrong = `${key.slice(0, -1)}${key.endsWith('x') ? 'y' : 'x'}`;
    const bad = await harness.app.inject({ url: URL, headers: auth(wrong) });
    assert.equal(bad.statusCode, 401);
    assert.equal(bad.headers['x-ratelimit-limit'], undefined);
  });

  test('a decision reused by the in-process path is read before the next one', () => {
    const limiter = createMemoryRateLimiter();
    const limits = { perMinute: 2, monthly: null };
    const now = Date.parse('2026-11-01T12:00:30Z');
    const first = limiter.consumeNow('a', limits, now)!;
    assert.equal(first.minute.remaining, 1);
    assert.equal(first.minute.resetSeconds, 30);
    const second = limiter.consumeNow('a', limits, now)!;
    assert.equal(second.minute.remaining, 0);
    assert.equal(second.allowed, true);
    assert.equal(limiter.consumeNow('a', limits, now)!.allowed, false);
    assert.equal(limiter.consumeNow('a', limits, now + 30_000)!.allowed, true, 'next minute');
  });

  test('a revoked key stops passing once the cache refreshes', async () => {
    const { harness, key, id, authenticator, revoke } = await realGate('pro');
    assert.equal((await harness.app.inject({ url: URL, headers: auth(key) })).statusCode, 200);
    await revoke(id);
    await authenticator.refreshNow();
    assert.equal((await harness.app.inject({ url: URL, headers: auth(key) })).statusCode, 401);
  });
});
