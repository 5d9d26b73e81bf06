/**
 * The RateLimiter contract: one node:test suite for every implementation (memory now, Redis
 * later). `makeLimiter` returns a fresh limiter with no counters. Times are explicit `now`
 * values; nothing here waits on a wall clock.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { QuotaDecision, QuotaLimits, RateLimiter } from './rate-limiter.ts';

const at = (text: string) => Date.parse(text);
const DEVELOPER: QuotaLimits = { perMinute: 60, monthly: 10_000 };

async function spend(
  limiter: RateLimiter,
  id: string,
  limits: QuotaLimits,
  now: number,
  times: number,
): Promise<QuotaDecision[]> {
  const decisions: QuotaDecision[] = [];
  for (let i = 0; i < times; i += 1) decisions.push(await limiter.consume(id, limits, now));
  return decisions;
}

const allowedCount = (decisions: QuotaDecision[]) => decisions.filter((d) => d.allowed).length;

export function rateLimiterContract(
  name: string,
  makeLimiter: () => RateLimiter | Promise<RateLimiter>,
): void {
  const withLimiter = (fn: (limiter: RateLimiter) => Promise<void>) => async () => {
    const limiter = await makeLimiter();
    try {
      await fn(limiter);
    } finally {
      await limiter.close();
    }
  };

  describe(`RateLimiter contract: ${name}`, () => {
    test(
      'admits exactly perMinute requests in one minute',
      withLimiter(async (limiter) => {
        const decisions = await spend(limiter, 'acc_a', DEVELOPER, at('2026-11-03T12:00:10Z'), 61);
        assert.equal(allowedCount(decisions), 60);
        assert.deepEqual(decisions[0]?.minute, { limit: 60, remaining: 59, resetSeconds: 50 });
        assert.equal(decisions[59]?.minute.remaining, 0);
        const last = decisions[60];
        assert.equal(last?.allowed, false);
        assert.equal(last?.refusedBy, 'minute');
        assert.equal(last?.retryAfterSeconds, 50);
        assert.deepEqual(last?.minute, { limit: 60, remaining: 0, resetSeconds: 50 });
      }),
    );

    test(
      'the minute resets exactly at the UTC minute boundary',
      withLimiter(async (limiter) => {
        await spend(limiter, 'acc_a', DEVELOPER, at('2026-11-03T12:00:00.000Z'), 60);
        const lastMs = await limiter.consume('acc_a', DEVELOPER, at('2026-11-03T12:00:59.999Z'));
        assert.equal(lastMs.allowed, false);
        assert.equal(lastMs.minute.resetSeconds, 1);
        assert.equal(lastMs.retryAfterSeconds, 1);
        const next = await limiter.consume('acc_a', DEVELOPER, at('2026-11-03T12:01:00.000Z'));
        assert.equal(next.allowed, true);
        assert.deepEqual(next.minute, { limit: 60, remaining: 59, resetSeconds: 60 });
      }),
    );

    test(
      'resetSeconds rounds up and is at least 1',
      withLimiter(async (limiter) => {
        const early = await limiter.consume('acc_a', DEVELOPER, at('2026-11-03T12:00:00.001Z'));
        assert.equal(early.minute.resetSeconds, 60);
        const late = await limiter.consume('acc_b', DEVELOPER, at('2026-11-03T12:00:58.500Z'));
        assert.equal(late.minute.resetSeconds, 2);
      }),
    );

    test(
      'budgets are pooled by account id and independent across accounts',
      withLimiter(async (limiter) => {
        const now = at('2026-11-03T12:00:00Z');
        const viaKeyOne = await spend(limiter, 'acc_shared', DEVELOPER, now, 30);
        const viaKeyTwo = await spend(limiter, 'acc_shared', DEVELOPER, now, 31);
        assert.equal(allowedCount(viaKeyOne) + allowedCount(viaKeyTwo), 60);
        const other = await limiter.consume('acc_other', DEVELOPER, now);
        assert.equal(other.allowed, true);
        assert.equal(other.minute.remaining, 59);
      }),
    );

    test(
      'the monthly cap refuses and retries at the next UTC month',
      withLimiter(async (limiter) => {
        const limits = { perMinute: 100, monthly: 5 };
        const now = at('2026-11-30T23:59:00Z');
        const decisions = await spend(limiter, 'acc_a', limits, now, 6);
        assert.equal(allowedCount(decisions), 5);
        assert.deepEqual(decisions[4]?.month, { limit: 5, remaining: 0, resetSeconds: 60 });
        const refused = decisions[5];
        assert.equal(refused?.refusedBy, 'month');
        assert.equal(refused?.retryAfterSeconds, 60);
        assert.equal(refused?.minute.remaining, 95, 'a month refusal spends no minute quota');
        const nextMonth = await limiter.consume('acc_a', limits, at('2026-12-01T00:00:00.000Z'));
        assert.equal(nextMonth.allowed, true);
        assert.equal(nextMonth.month?.remaining, 4);
      }),
    );

    test(
      'month resetSeconds counts to the first instant of next month',
      withLimiter(async (limiter) => {
        const decision = await limiter.consume('acc_a', DEVELOPER, at('2026-02-28T00:00:00Z'));
        assert.equal(decision.month?.resetSeconds, 24 * 3600);
        assert.equal(decision.month?.remaining, 9_999);
      }),
    );

    test(
      'a minute refusal spends no monthly quota',
      withLimiter(async (limiter) => {
        const limits = { perMinute: 2, monthly: 10 };
        const decisions = await spend(limiter, 'acc_a', limits, at('2026-11-03T12:00:00Z'), 5);
        assert.equal(allowedCount(decisions), 2);
        assert.equal(decisions[4]?.refusedBy, 'minute');
        assert.equal(decisions[4]?.month?.remaining, 8);
        const later = await limiter.consume('acc_a', limits, at('2026-11-03T12:01:00Z'));
        assert.equal(later.month?.remaining, 7);
      }),
    );

    test(
      'no monthly cap: month is null and never refuses',
      withLimiter(async (limiter) => {
        const limits = { perMinute: 3_000, monthly: null };
        const decisions = await spend(limiter, 'acc_e', limits, at('2026-11-03T12:00:00Z'), 3);
        assert.ok(decisions.every((d) => d.allowed && d.month === null));
        assert.equal(decisions[2]?.minute.remaining, 2_997);
      }),
    );

    test(
      'remaining never goes negative when limits shrink',
      withLimiter(async (limiter) => {
        const now = at('2026-11-03T12:00:00Z');
        await spend(limiter, 'acc_a', { perMinute: 10, monthly: 10 }, now, 8);
        const decision = await limiter.consume('acc_a', { perMinute: 5, monthly: 5 }, now);
        assert.equal(decision.allowed, false);
        assert.equal(decision.minute.remaining, 0);
        assert.equal(decision.month?.remaining, 0);
      }),
    );

    test(
      'concurrent consumes admit exactly the limit',
      withLimiter(async (limiter) => {
        const now = at('2026-11-03T12:00:30Z');
        const decisions = await Promise.all(
          Array.from({ length: 100 }, () => limiter.consume('acc_burst', DEVELOPER, now)),
        );
        assert.equal(allowedCount(decisions), 60);
        const remaining = decisions.filter((d) => d.allowed).map((d) => d.minute.remaining);
        assert.deepEqual(
          [...remaining].sort((a, b) => a - b),
          Array.from({ length: 60 }, (_, i) => i),
        );
      }),
    );
  });
}
