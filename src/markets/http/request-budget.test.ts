import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { backoffDelayMs, DEFAULT_RETRY, parseRetryAfter } from './backoff.ts';
import { CircuitBreaker } from './circuit-breaker.ts';
import { RequestBudget } from './request-budget.ts';

describe('request budget', () => {
  test('property: no window of the limit ever holds more than its requests', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 10 }),
        fc.integer({ min: 1_000, max: 300_000 }),
        fc.array(fc.integer({ min: 0, max: 60_000 }), { minLength: 1, maxLength: 200 }),
        (requests, windowMs, gaps) => {
          const budget = new RequestBudget([{ requests, windowMs }]);
          const sent: number[] = [];
          let now = 0;
          for (const gap of gaps) {
            now += gap;
            if (budget.waitAt(now) === 0) {
              budget.spend(now);
              sent.push(now);
            }
          }
          for (let i = 0; i + requests < sent.length; i += 1) {
            assert.ok(sent[i + requests]! - sent[i]! >= windowMs, 'N+1 sends span a window');
          }
        },
      ),
    );
  });

  test('the wait is exactly until the oldest token comes back', () => {
    const budget = new RequestBudget([{ requests: 2, windowMs: 60_000 }]);
    budget.spend(0);
    budget.spend(10_000);
    assert.equal(budget.waitAt(30_000), 30_000);
    assert.equal(budget.waitAt(60_000), 0);
  });

  test('several limits: the strictest one decides', () => {
    const budget = new RequestBudget([
      { requests: 5, windowMs: 1_000 },
      { requests: 20, windowMs: 60_000 },
    ]);
    let sent = 0;
    for (let now = 0; now < 60_000; now += 100) {
      if (budget.waitAt(now) === 0) {
        budget.spend(now);
        sent += 1;
      }
    }
    assert.equal(sent, 20);
  });

  test('a block (Retry-After) holds every request until it ends', () => {
    const budget = new RequestBudget([{ requests: 100, windowMs: 1_000 }]);
    budget.block(5_000);
    assert.equal(budget.waitAt(1_000), 4_000);
    assert.equal(budget.waitAt(5_000), 0);
  });

  test('a refunded token is as if never spent', () => {
    const budget = new RequestBudget([{ requests: 1, windowMs: 60_000 }]);
    budget.spend(1_000);
    assert.equal(budget.waitAt(2_000), 59_000);
    budget.refund(1_000);
    assert.equal(budget.waitAt(2_000), 0);
    assert.deepEqual(budget.usedAt(2_000), [0]);
  });

  test('invalid limits are refused', () => {
    assert.throws(() => new RequestBudget([{ requests: 0, windowMs: 1 }]));
  });
});

describe('backoff and Retry-After', () => {
  test('equal jitter doubles per attempt and never undercuts Retry-After', () => {
    assert.equal(
      backoffDelayMs(1, DEFAULT_RETRY, () => 0, null),
      250,
    );
    assert.equal(
      backoffDelayMs(1, DEFAULT_RETRY, () => 1, null),
      500,
    );
    assert.equal(
      backoffDelayMs(2, DEFAULT_RETRY, () => 0, null),
      500,
    );
    assert.equal(
      backoffDelayMs(10, DEFAULT_RETRY, () => 1, null),
      10_000,
      'capped',
    );
    assert.equal(
      backoffDelayMs(1, DEFAULT_RETRY, () => 1, 3_000),
      3_000,
    );
  });

  test('Retry-After as seconds or as an HTTP date', () => {
    const now = Date.parse('2026-11-24T12:00:00Z');
    assert.equal(parseRetryAfter('120', now), 120_000);
    assert.equal(parseRetryAfter('Tue, 24 Nov 2026 12:00:30 GMT', now), 30_000);
    assert.equal(parseRetryAfter('Tue, 24 Nov 2026 11:00:00 GMT', now), 0);
    assert.equal(parseRetryAfter('soon', now), null);
    assert.equal(parseRetryAfter('1.5', now), null);
    assert.equal(parseRetryAfter(undefined, now), null);
  });
});

describe('circuit breaker rules', () => {
  const options = { failureThreshold: 3, cooldownMs: 1_000, maxCooldownMs: 4_000 };

  test('opens at the threshold, half-opens after the cooldown with one probe only', () => {
    const breaker = new CircuitBreaker(options);
    breaker.failure(0);
    breaker.failure(0);
    assert.equal(breaker.state(0), 'closed');
    breaker.failure(0);
    assert.deepEqual(breaker.admit(999), { allowed: false, retryAt: 1_000 });
    assert.deepEqual(breaker.admit(1_000), { allowed: true, probe: true });
    assert.equal(breaker.admit(1_000).allowed, false, 'a second request waits for the probe');
    breaker.success();
    assert.equal(breaker.state(1_000), 'closed');
  });

  test('failed probes double the cooldown up to the cap; a success resets it', () => {
    const breaker = new CircuitBreaker(options);
    for (let i = 0; i < 3; i += 1) breaker.failure(0);
    let now = 1_000;
    for (const expected of [2_000, 4_000, 4_000]) {
      assert.equal(breaker.admit(now).allowed, true);
      breaker.failure(now);
      assert.deepEqual(breaker.admit(now + expected - 1), {
        allowed: false,
        retryAt: now + expected,
      });
      now += expected;
    }
    assert.equal(breaker.admit(now).allowed, true);
    breaker.success();
    for (let i = 0; i < 3; i += 1) breaker.failure(now);
    assert.deepEqual(breaker.admit(now), { allowed: false, retryAt: now + 1_000 });
  });
});
