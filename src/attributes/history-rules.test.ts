import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { DAY, HOUR, MINUTE } from '../domain/clock.ts';
import {
  decodeCursor,
  encodeCursor,
  parseAttributes,
  parseBucketIds,
  parseWindow,
} from './attribute-query.ts';
import { mergeRollup, pointOf, rollupOf, type BucketObservation } from '../store/bucket-history.ts';
import { T0 } from './test-fixtures.ts';

const observationArb = fc.record({
  bucketId: fc.constant('buff163:cs2_x:float:0.15-0.18'),
  at: fc.integer({ min: T0, max: T0 + 10 * MINUTE - 1 }),
  askCents: fc.integer({ min: 1, max: 100_000 }),
  bidCents: fc.option(fc.integer({ min: 1, max: 100_000 })),
  askListingCount: fc.integer({ min: 1, max: 50 }),
  bidOrderCount: fc.option(fc.integer({ min: 1, max: 50 })),
});

describe('bucket rollups', () => {
  test('property: OHLC points are consistent in any arrival order', () => {
    fc.assert(
      fc.property(fc.array(observationArb, { minLength: 1, maxLength: 30 }), (observations) => {
        const rows = observations.map((observation) => rollupOf(observation, '10m'));
        const row = rows.slice(1).reduce(mergeRollup, rows[0]!);
        const point = pointOf(row);
        assert.ok(
          point.lowAskCents <= point.openAskCents && point.openAskCents <= point.highAskCents,
        );
        assert.ok(
          point.lowAskCents <= point.closeAskCents && point.closeAskCents <= point.highAskCents,
        );
        assert.ok(
          point.lowAskCents <= point.avgAskCents && point.avgAskCents <= point.highAskCents,
        );
        assert.ok(point.firstObservedAt <= point.lastObservedAt);
        const times = new Set(observations.map((o) => o.at));
        const earliest = Math.min(...times);
        const first = observations.find((o) => o.at === earliest)!;
        assert.equal(point.openAskCents, first.askCents);
        assert.equal(point.bucketStart, T0);
      }),
    );
  });

  test('an observation at a time the row already counted changes nothing', () => {
    const base: BucketObservation = {
      bucketId: 'b',
      at: T0,
      askCents: 100,
      bidCents: null,
      askListingCount: 1,
      bidOrderCount: null,
    };
    const row = rollupOf(base, '1h');
    assert.deepEqual(mergeRollup(row, rollupOf({ ...base, askCents: 5 }, '1h')), row);
    const later = mergeRollup(
      row,
      rollupOf({ ...base, at: T0 + MINUTE, askCents: 90, bidCents: 80 }, '1h'),
    );
    assert.deepEqual(
      [later.open, later.close, later.low, later.high, later.askN, later.closeBid],
      [100, 90, 90, 100, 2, 80],
    );
  });
});

describe('attribute query rules', () => {
  const now = T0;
  test('the 10,000-bucket window limit, exactly', () => {
    const at10m = (buckets: number) => ({
      from: new Date(now - (buckets - 1) * 10 * MINUTE).toISOString(),
      granularity: '10m' as const,
    });
    assert.equal(parseWindow(at10m(10_000), now).tier, '10m');
    assert.throws(() => parseWindow(at10m(10_001), now), /10001 buckets of 10m; at most 10000/);
    assert.throws(() => parseWindow({ from: 'now-70d', granularity: '10m' }, now), /at most 10000/);
    assert.equal(parseWindow({ from: 'now-69d', granularity: '10m' }, now).tier, '10m');
    assert.equal(parseWindow({ from: 'now-400d', granularity: '1h' }, now).tier, '1h');
  });

  test('default window: the last 7 days at 10m; coarser tiers for longer windows', () => {
    assert.deepEqual(parseWindow({}, now), { fromMs: now - 7 * DAY, toMs: now, tier: '10m' });
    assert.equal(parseWindow({ from: 'now-30d' }, now).tier, '1h');
    assert.equal(parseWindow({ from: 'now-400d' }, now).tier, '1d');
    assert.throws(
      () => parseWindow({ from: 'now', to: 'now-1h' }, now),
      /from must not be after to/,
    );
    assert.throws(() => parseWindow({ from: 'yesterday' }, now), /from must be a valid ISO 8601/);
    assert.equal(parseWindow({ to: 'now-1h' }, now).toMs, now - HOUR);
  });

  test('attributes: default float, CSV of float, fade, tag, anything else 400', () => {
    assert.deepEqual([...parseAttributes(undefined)], ['float']);
    assert.deepEqual([...parseAttributes('tag, fade')], ['tag', 'fade']);
    assert.throws(() => parseAttributes('wear'), /attributes must be a comma-separated list/);
    assert.throws(() => parseAttributes(','), /attributes must be/);
  });

  test('cursors round-trip; a forged one is 400', () => {
    assert.equal(decodeCursor(encodeCursor('cs2_abc')), 'cs2_abc');
    assert.equal(decodeCursor(undefined), null);
    assert.throws(() => decodeCursor('not-a-cursor'), /cursor must be a nextCursor/);
  });

  test('bucket ids: required, well formed, at most 20', () => {
    assert.throws(() => parseBucketIds(undefined, undefined), /bucketId or bucketIds is required/);
    assert.throws(() => parseBucketIds('buff163:x:float:oops', undefined), /not a bucket id/);
    assert.throws(() => parseBucketIds('nowhere:x:float:0.15-0.18', undefined), /not a bucket id/);
    const many = Array.from({ length: 21 }, (_, i) => `buff163:i${i}:tag:ruby`).join(',');
    assert.throws(() => parseBucketIds(undefined, many), /at most 20|more than 20/);
    const both = parseBucketIds('buff163:a:tag:ruby', 'buff163:a:tag:ruby,csfloat:a:fade:95-96');
    assert.deepEqual(
      both.map((b) => [b.market, b.itemId, b.key]),
      [
        ['buff163', 'a', 'tag:ruby'],
        ['csfloat', 'a', 'fade:95-96'],
      ],
    );
  });
});
