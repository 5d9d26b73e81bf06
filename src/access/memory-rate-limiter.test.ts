import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createMemoryRateLimiter } from './memory-rate-limiter.ts';
import { rateLimiterContract } from './rate-limiter-contract.ts';
import { healthIpKey, healthIpLimits } from './health-limits.ts';
import { MINUTE } from '../domain/clock.ts';

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
    assert.equal(healthIpKey('::ffff:203.0.113.9'), healthIpKey('203.0.113.9'));
    for (let i = 0; i < 30; i += 1) {
      await limiter.consume(healthIpKey('203.0.113.9'), healthIpLimits, now);
      await limiter.consume(healthIpKey('::ffff:203.0.113.9'), healthIpLimits, now);
    }
    const refused = await limiter.consume(healthIpKey('203.0.113.9'), healthIpLimits, now);
    assert.equal(refused.allowed, false);
    assert.equal(refused.month, null);
    const otherIp = await limiter.consume(healthIpKey('198.51.100.1'), healthIpLimits, now);
    assert.equal(otherIp.allowed, true);
  });
});
