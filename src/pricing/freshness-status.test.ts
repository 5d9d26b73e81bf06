import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { MINUTE } from '../domain/clock.ts';
import {
  freshnessReport,
  freshnessStatus,
  overallStatus,
  type FreshnessStatus,
} from './freshness-status.ts';

const NOW = Date.parse('2026-11-01T12:00:00Z');

describe('freshnessStatus', () => {
  test('boundaries: 5:00 healthy, 5:00.001 degraded, 15:00 degraded, 15:00.001 stale', () => {
    assert.equal(freshnessStatus(NOW, NOW), 'healthy');
    assert.equal(freshnessStatus(NOW - 5 * MINUTE, NOW), 'healthy');
    assert.equal(freshnessStatus(NOW - 5 * MINUTE - 1, NOW), 'degraded');
    assert.equal(freshnessStatus(NOW - 15 * MINUTE, NOW), 'degraded');
    assert.equal(freshnessStatus(NOW - 15 * MINUTE - 1, NOW), 'stale');
  });

  test('a market that never delivered is stale', () => {
    assert.equal(freshnessStatus(null, NOW), 'stale');
  });
});

const repeat = (status: FreshnessStatus, count: number) =>
  Array.from({ length: count }, () => status);

describe('overallStatus', () => {
  test('stale when more than half are stale', () => {
    assert.equal(overallStatus([...repeat('stale', 3), ...repeat('healthy', 2)]), 'stale');
    assert.equal(overallStatus(['stale']), 'stale');
  });

  test('exactly half stale is degraded, not stale', () => {
    assert.equal(overallStatus([...repeat('stale', 2), ...repeat('healthy', 2)]), 'degraded');
  });

  test('degraded when any market is stale', () => {
    assert.equal(overallStatus(['stale', ...repeat('healthy', 9)]), 'degraded');
  });

  test('degraded when more than 30% are degraded; exactly 30% stays healthy', () => {
    assert.equal(overallStatus([...repeat('degraded', 3), ...repeat('healthy', 7)]), 'healthy');
    assert.equal(overallStatus([...repeat('degraded', 4), ...repeat('healthy', 6)]), 'degraded');
  });

  test('healthy otherwise, including an empty list', () => {
    assert.equal(overallStatus(repeat('healthy', 4)), 'healthy');
    assert.equal(overallStatus([]), 'healthy');
  });
});

describe('freshnessReport', () => {
  test('rows in snake_case with whole-second delays and nulls for silent markets', () => {
    const report = freshnessReport(
      [
        { market: 'skinport', lastUpdate: NOW - 90_999 },
        { market: 'buff163', lastUpdate: null },
      ],
      NOW,
    );
    assert.deepEqual(report, {
      markets: [
        {
          market: 'skinport',
          delay_seconds: 90,
          last_update: new Date(NOW - 90_999).toISOString(),
          status: 'healthy',
        },
        { market: 'buff163', delay_seconds: null, last_update: null, status: 'stale' },
      ],
      overall_status: 'degraded',
      checked_at: '2026-11-01T12:00:00.000Z',
    });
  });
});
