import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { DAY, HOUR, MINUTE } from '../domain/clock.ts';
import {
  autoTier,
  bucketBounds,
  bucketCount,
  bucketStart,
  coverRange,
  INTERVAL_TIER,
  TIER_MS,
  tierFor,
} from './rollup-buckets.ts';

const T = Date.parse('2026-11-01T00:00:00Z');

describe('bucket alignment', () => {
  test('buckets start on UTC 10-minute, hour and day boundaries', () => {
    const at = Date.parse('2026-11-03T17:47:59.999Z');
    assert.equal(new Date(bucketStart(at, '10m')).toISOString(), '2026-11-03T17:40:00.000Z');
    assert.equal(new Date(bucketStart(at, '1h')).toISOString(), '2026-11-03T17:00:00.000Z');
    assert.equal(new Date(bucketStart(at, '1d')).toISOString(), '2026-11-03T00:00:00.000Z');
    assert.equal(bucketStart(T, '1d'), T, 'a boundary belongs to the bucket it starts');
  });
});

describe('interval rules', () => {
  test('every interval maps to its stored tier', () => {
    assert.deepEqual(INTERVAL_TIER, {
      MINUTE_5: '10m',
      MINUTE_15: '10m',
      HOUR_1: '1h',
      HOUR_6: '1h',
      DAY_1: '1d',
    });
    for (const [interval, tier] of Object.entries(INTERVAL_TIER)) {
      assert.equal(tierFor(interval as keyof typeof INTERVAL_TIER, T, T + 400 * DAY), tier);
    }
  });

  test('without an interval: up to 7 days 10m, up to 180 days 1h, longer 1d', () => {
    assert.equal(autoTier(T, T), '10m');
    assert.equal(autoTier(T, T + 7 * DAY), '10m');
    assert.equal(autoTier(T, T + 7 * DAY + 1), '1h');
    assert.equal(autoTier(T, T + 180 * DAY), '1h');
    assert.equal(autoTier(T, T + 180 * DAY + 1), '1d');
    assert.equal(tierFor(undefined, T, T + 30 * DAY), '1h');
  });

  test('the point count is the buckets overlapping the range, both ends included', () => {
    assert.equal(bucketCount(T, T, '10m'), 1);
    assert.equal(bucketCount(T, T + 10 * MINUTE - 1, '10m'), 1);
    assert.equal(bucketCount(T, T + 10 * MINUTE, '10m'), 2);
    assert.equal(bucketCount(T + 5 * MINUTE, T + 65 * MINUTE, '1h'), 2);
    assert.equal(bucketCount(T, T + 9_999 * TIER_MS['10m'], '10m'), 10_000);
    assert.equal(bucketCount(T + 1, T, '1h'), 0);
    assert.deepEqual(bucketBounds(T + 5 * MINUTE, T + 65 * MINUTE, '1h'), [T, T + 2 * HOUR]);
  });
});

describe('coverRange', () => {
  test('uses the coarsest whole buckets, in time order', () => {
    const from = T + 23 * HOUR + 40 * MINUTE;
    const to = T + 2 * DAY + HOUR + 20 * MINUTE;
    assert.deepEqual(coverRange(from, to), [
      { tier: '10m', fromMs: from, toMs: T + DAY },
      { tier: '1d', fromMs: T + DAY, toMs: T + 2 * DAY },
      { tier: '1h', fromMs: T + 2 * DAY, toMs: T + 2 * DAY + HOUR },
      { tier: '10m', fromMs: T + 2 * DAY + HOUR, toMs: to },
    ]);
    assert.deepEqual(coverRange(T, T), []);
    assert.throws(() => coverRange(T + 1, T + HOUR), /not aligned/);
  });

  test('pieces are contiguous and exactly cover any 10m-aligned range', () => {
    fc.assert(
      fc.property(fc.nat(2_000), fc.nat(2_000), (a, b) => {
        const from = T + a * TIER_MS['10m'];
        const to = from + b * TIER_MS['10m'];
        const spans = coverRange(from, to);
        let at = from;
        for (const span of spans) {
          assert.equal(span.fromMs, at);
          assert.equal(span.fromMs % TIER_MS[span.tier], 0);
          assert.equal(span.toMs % TIER_MS[span.tier], 0);
          at = span.toMs;
        }
        assert.equal(at, to);
      }),
    );
  });
});
