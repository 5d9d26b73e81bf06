import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { bandOf, layoutOf } from './bands.ts';
import { deriveBuckets, isRequested, type Attribute } from './buckets.ts';
import { bidSide, DOPPLER, FADE, listing, REDLINE, T0 } from './test-fixtures.ts';

const keys = (buckets: { bucketKey: string }[]) => buckets.map((bucket) => bucket.bucketKey);

describe('deriving buckets', () => {
  test('Buff163 bands on buff163, 0.01 bins on csfloat, for the same floats', () => {
    const floats = [0.15, 0.1799, 0.18, 0.3];
    const on = (market: 'buff163' | 'csfloat') =>
      deriveBuckets({
        market,
        item: REDLINE,
        listings: floats.map((floatValue, i) => listing(REDLINE, market, 1000 + i, { floatValue })),
        bid: null,
      });
    assert.deepEqual(keys(on('buff163')), [
      'float:0.15-0.18',
      'float:0.18-0.21',
      'float:0.27-0.38',
    ]);
    assert.deepEqual(keys(on('csfloat')), [
      'float:0.15-0.16',
      'float:0.17-0.18',
      'float:0.18-0.19',
      'float:0.3-0.31',
    ]);
    const first = on('buff163')[0]!;
    assert.equal(first.bucketId, `buff163:${REDLINE.id}:float:0.15-0.18`);
    assert.deepEqual(first.dimensions.float, {
      min: 0.15,
      max: 0.18,
      minInclusive: true,
      maxInclusive: false,
    });
    assert.deepEqual(
      [first.askCents, first.avgAskCents, first.medianAskCents, first.askListingCount],
      [1000, 1001, 1001, 2],
    );
  });

  test('null bid and order count when the market has no bid; the best bid otherwise', () => {
    const listings = [listing(REDLINE, 'buff163', 900, { floatValue: 0.2 })];
    const none = deriveBuckets({ market: 'buff163', item: REDLINE, listings, bid: null });
    assert.deepEqual([none[0]!.bidCents, none[0]!.bidOrderCount], [null, null]);
    const empty = deriveBuckets({
      market: 'buff163',
      item: REDLINE,
      listings,
      bid: bidSide(REDLINE, 'buff163', []),
    });
    assert.equal(empty[0]!.bidCents, null);
    const bid = bidSide(REDLINE, 'buff163', [850, 800]);
    const some = deriveBuckets({ market: 'buff163', item: REDLINE, listings, bid });
    assert.deepEqual([some[0]!.bidCents, some[0]!.bidOrderCount], [850, 2]);
  });

  test('fade buckets from the seed on Fade weapons; 100 % joins 99-100', () => {
    const buckets = deriveBuckets({
      market: 'csfloat',
      item: FADE,
      listings: [
        listing(FADE, 'csfloat', 50_000, { floatValue: 0.01, paintSeed: 412 }),
        listing(FADE, 'csfloat', 40_000, { floatValue: 0.02, paintSeed: 0 }),
      ],
      bid: null,
    });
    const fades = buckets.filter((bucket) => bucket.attributeTypes[0] === 'fade');
    assert.deepEqual(keys(fades), ['fade:95-96', 'fade:99-100']);
    assert.deepEqual(fades[1]!.dimensions.fade, {
      min: 99,
      max: 100,
      minInclusive: true,
      maxInclusive: true,
    });
    const noFade = deriveBuckets({
      market: 'csfloat',
      item: REDLINE,
      listings: [listing(REDLINE, 'csfloat', 1, { floatValue: 0.2, paintSeed: 412 })],
      bid: null,
    });
    assert.deepEqual(keys(noFade), ['float:0.2-0.21']);
  });

  test("tag buckets keep the source's label; phases are priced apart (Ruby is not the cheapest)", () => {
    const buckets = deriveBuckets({
      market: 'buff163',
      item: DOPPLER,
      listings: [
        listing(DOPPLER, 'buff163', 100_000, {
          floatValue: 0.01,
          phase: 'Phase 2',
          paintIndex: 419,
        }),
        listing(DOPPLER, 'buff163', 600_000, { floatValue: 0.015, phase: 'Ruby', paintIndex: 415 }),
      ],
      bid: null,
    });
    const byKey = new Map(buckets.map((bucket) => [bucket.bucketKey, bucket]));
    assert.equal(byKey.get('tag:ruby')!.askCents, 600_000);
    assert.equal(byKey.get('tag:phase-2')!.askCents, 100_000);
    assert.equal(byKey.get('tag:ruby')!.dimensions.variant, 'Ruby');
    assert.equal(byKey.get('tag:ruby')!.dimensions.finishCatalog, 415);
    assert.deepEqual(byKey.get('tag:ruby:float:0.01-0.02')!.attributeTypes, ['tag', 'float']);
    assert.equal(byKey.get('float:0.01-0.02')!.askListingCount, 2);
  });

  test('a bucket is served only when all of its dimensions were asked for', () => {
    const [tagged] = deriveBuckets({
      market: 'buff163',
      item: DOPPLER,
      listings: [listing(DOPPLER, 'buff163', 1, { floatValue: 0.01, phase: 'Ruby' })],
      bid: null,
    }).filter((bucket) => bucket.attributeTypes.length === 2);
    const ask = (...names: Attribute[]) => isRequested(tagged!, new Set(names));
    assert.deepEqual([ask('float'), ask('tag'), ask('tag', 'float')], [false, false, true]);
  });
});

describe('properties', () => {
  const listingsArb = fc.array(
    fc.record({
      price: fc.integer({ min: 1, max: 1_000_000 }),
      floatValue: fc.double({ min: 0, max: 1, noNaN: true }),
    }),
    { minLength: 1, maxLength: 40 },
  );
  const marketArb = fc.constantFrom('buff163' as const, 'csfloat' as const, 'dmarket' as const);

  test('every listing falls in exactly one float bucket of its market', () => {
    fc.assert(
      fc.property(listingsArb, marketArb, (rows, market) => {
        const listings = rows.map((row) => listing(REDLINE, market, row.price, row));
        const floats = deriveBuckets({ market, item: REDLINE, listings, bid: null }).filter(
          (bucket) => bucket.attributeTypes.join() === 'float',
        );
        assert.equal(
          floats.reduce((sum, bucket) => sum + bucket.askListingCount, 0),
          listings.length,
        );
        for (const row of listings) {
          const band = bandOf(layoutOf(market), row.floatValue!);
          const holding = floats.filter(
            (bucket) =>
              bucket.dimensions.float!.min === band.min &&
              bucket.dimensions.float!.max === band.max,
          );
          assert.equal(holding.length, 1);
        }
      }),
      { numRuns: 300 },
    );
  });

  test("a bucket's askCents is the minimum of its listings' prices", () => {
    fc.assert(
      fc.property(listingsArb, marketArb, (rows, market) => {
        const listings = rows.map((row) => listing(REDLINE, market, row.price, row));
        for (const bucket of deriveBuckets({ market, item: REDLINE, listings, bid: null })) {
          const band = bucket.dimensions.float!;
          const inside = listings.filter(
            (l) => bandOf(layoutOf(market), l.floatValue!).min === band.min,
          );
          assert.equal(bucket.askCents, Math.min(...inside.map((l) => l.price)));
          assert.ok(
            bucket.askCents <= bucket.medianAskCents && bucket.askCents <= bucket.avgAskCents,
          );
          assert.equal(bucket.sourceUpdatedAt, T0);
        }
      }),
      { numRuns: 300 },
    );
  });
});
