import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createMemoryRateLimiter } from './memory-rate-limiter.ts';
import { rateLimiterContract } from './rate-limiter-contract.ts';
import { clientIpKey } from './ip-gate.ts';
import { MINUTE } from '../domain/clock.ts';
import { fakeLedger, ledgerKey } from './monthly-usage-test-support.ts';

const HEALTH_LIMITS = { perMinute: 60, monthly: null };

rateLimiterContract('memory', () => createMemoryRateLimiter());

describe('memory limiter housekeeping', () => {
  test('counters of past minutes and months are dropped', async () => {
    const limiter = createMemoryRateLimiter();
    const start = Date.parse('2026-11-03T12:00:00Z');
    for (let i = 0; i < 50; i += 1) {
      await limiter.consume(`acc_${i}`, { perMinute: 10, monthly: 100 }, start);
    }
    assert.equal(limiter.trackedCounters(), 100);
    await limiter.consume('acc_0', { perMinute: 10, monthly: 100 }, start + MINUTE);
    assert.equal(limiter.trackedCounters(), 51, 'old minutes swept, this month kept');
    await limiter.consume(
      'acc_0',
      { perMinute: 10, monthly: 100 },
      Date.parse('2026-12-01T00:00:00Z'),
    );
    assert.equal(limiter.trackedCounters(), 2);
  });

  test('the health limiter pools an IPv4 client with its IPv4-mapped IPv6 form', async () => {
    const limiter = createMemoryRateLimiter();
    const now = Date.parse('2026-11-03T12:00:00Z');
    assert.equal(clientIpKey('::ffff:203.0.113.9'), clientIpKey('203.0.113.9'));
    for (let i = 0; i < 30; i += 1) {
      await limiter.consume(clientIpKey('203.0.113.9'), HEALTH_LIMITS, now);
      await limiter.consume(clientIpKey('::ffff:203.0.113.9'), HEALTH_LIMITS, now);
    }
    const refused = await limiter.consume(clientIpKey('203.0.113.9'), HEALTH_LIMITS, now);
    assert.equal(refused.allowed, false);
    assert.equal(refused.month, null);
    const otherIp = await limiter.consume(clientIpKey('198.51.100.1'), HEALTH_LIMITS, now);
    assert.equal(otherIp.allowed, true);
  });
});

rateLimiterContract('memory with a seeding month ledger', () =>
  createMemoryRateLimiter({ monthLedger: fakeLedger(), seedMonths: true }),
);

describe('memory limiter with a month ledger', () => {
  const NOV = Date.parse('2026-11-03T12:00:00Z');
  const LIMITS = { perMinute: 100, monthly: 50 };

  test('records admitted requests under a monthly cap only', async () => {
    const ledger = fakeLedger();
    const limiter = createMemoryRateLimiter({ monthLedger: ledger });
    for (let i = 0; i < 3; i += 1)
      await limiter.consume('acc_a', { perMinute: 2, monthly: 50 }, NOV);
    await limiter.consume('acc_b', { perMinute: 2, monthly: null }, NOV);
    assert.deepEqual([...ledger.recorded], [[ledgerKey('acc_a', 202611), 2]]);
    assert.equal(ledger.reads, 0, 'no seeding without seedMonths');
  });

  test('a restarted process starts the month from the ledger, reading it once', async () => {
    const ledger = fakeLedger({ [ledgerKey('acc_a', 202611)]: 45 });
    const limiter = createMemoryRateLimiter({ monthLedger: ledger, seedMonths: true });
    const decisions = await Promise.all(
      Array.from({ length: 8 }, () => limiter.consume('acc_a', LIMITS, NOV)),
    );
    assert.equal(decisions.filter((decision) => decision.allowed).length, 5);
    assert.equal(decisions.at(-1)?.refusedBy, 'month');
    assert.equal(ledger.reads, 1);
    const december = await limiter.consume('acc_a', LIMITS, Date.parse('2026-12-01T00:00:00Z'));
    assert.equal(december.month?.remaining, 49, 'a new month starts from its own total');
  });

  test('a failed read decides on the local count and is retried a second later', async () => {
    const ledger = fakeLedger({ [ledgerKey('acc_a', 202611)]: 30 });
    ledger.failing = true;
    const limiter = createMemoryRateLimiter({ monthLedger: ledger, seedMonths: true });
    assert.equal((await limiter.consume('acc_a', LIMITS, NOV)).month?.remaining, 49);
    assert.equal((await limiter.consume('acc_a', LIMITS, NOV + 999)).month?.remaining, 48);
    assert.equal(ledger.reads, 1, 'no read on every request while the store is down');
    ledger.failing = false;
    const seeded = await limiter.consume('acc_a', LIMITS, NOV + 1_000);
    assert.equal(seeded.month?.remaining, 50 - 33, 'the local counts are not counted twice');
  });
});
