import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { nearestRank, populationStdDev, priceStats, roundedMean, roundedMedian } from './stats.ts';

describe('priceStats', () => {
  test('is null for no prices', () => {
    assert.equal(priceStats([]), null);
  });

  test('one price: every statistic is that price and stdDev 0', () => {
    assert.deepEqual(priceStats([1550]), {
      minPrice: 1550,
      maxPrice: 1550,
      avgPrice: 1550,
      medianPrice: 1550,
      stdDev: 0,
    });
  });

  test('rounds the mean and an even-count median half up', () => {
    assert.deepEqual(priceStats([100, 101]), {
      minPrice: 100,
      maxPrice: 101,
      avgPrice: 101,
      medianPrice: 101,
      stdDev: 0.5,
    });
    assert.equal(roundedMean([1, 1, 2]), 1);
    assert.equal(roundedMedian([1, 2, 3]), 2);
    assert.equal(roundedMedian([1, 2, 5, 9]), 4);
  });

  test('stdDev is the population deviation rounded to 2 decimals', () => {
    assert.equal(populationStdDev([2, 4, 4, 4, 5, 5, 7, 9]), 2);
    assert.equal(populationStdDev([1, 2, 3]), 0.82);
  });

  test('integers stay integers and lie between min and max', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 500_000_000 }), { minLength: 1 }),
        (prices) => {
          const stats = priceStats(prices)!;
          for (const value of [stats.avgPrice, stats.medianPrice]) {
            assert.ok(Number.isSafeInteger(value));
            assert.ok(value >= stats.minPrice && value <= stats.maxPrice);
          }
          assert.ok(stats.stdDev >= 0);
        },
      ),
    );
  });
});

describe('nearestRank', () => {
  test('uses ceil(p × n / 100)', () => {
    const values = Array.from({ length: 20 }, (_, index) => index + 1);
    assert.equal(nearestRank(values, 95), 19);
    assert.equal(nearestRank(values, 99), 20);
    assert.equal(nearestRank(values, 50), 10);
    assert.equal(nearestRank([7], 99), 7);
    assert.equal(nearestRank([], 50), null);
  });
});
