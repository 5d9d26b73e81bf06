import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  binLow,
  binOf,
  sketchAdd,
  sketchMedian,
  sketchMerge,
  type Sketch,
} from './rollup-sketch.ts';
import { roundedMedian } from './stats.ts';

function sketchOf(prices: readonly number[]): Sketch {
  const sketch: Sketch = [];
  for (const price of prices) sketchAdd(sketch, price);
  return sketch;
}

describe('bins', () => {
  test('prices below 256 cents have a bin each; above, bins are under 0.79% wide', () => {
    for (let price = 0; price < 256; price += 1) assert.equal(binLow(binOf(price)), price);
    for (const price of [256, 257, 511, 512, 1_000, 12_345, 999_999, 2 ** 40 + 3, 2 ** 52]) {
      const bin = binOf(price);
      const low = binLow(bin);
      const next = binLow(bin + 1);
      assert.ok(low <= price && price < next, `${price} in [${low}, ${next})`);
      assert.ok((next - low) / low <= 1 / 128);
    }
  });

  test('bins rise with the price', () => {
    fc.assert(
      fc.property(fc.nat(10_000_000), fc.nat(10_000_000), (a, b) => {
        if (a <= b) assert.ok(binOf(a) <= binOf(b));
      }),
    );
  });
});

describe('median', () => {
  test('exact for small prices and for repeated values, like roundedMedian', () => {
    assert.equal(sketchMedian([]), null);
    assert.equal(sketchMedian(sketchOf([100, 7, 250])), 100);
    assert.equal(sketchMedian(sketchOf([100, 7, 250, 9])), 55);
    assert.equal(sketchMedian(sketchOf([123_456, 123_456, 99_000, 500_000])), 123_456);
    assert.equal(sketchMedian(sketchOf([1_000, 2_000])), 1_500);
  });

  test('within one bin width (< 0.79%) of the exact median', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: 5_000_000 }), { minLength: 1 }), (prices) => {
        const exact = roundedMedian([...prices].sort((a, b) => a - b));
        const approx = sketchMedian(sketchOf(prices))!;
        assert.ok(Math.abs(approx - exact) <= exact / 128 + 1, `${approx} vs ${exact}`);
      }),
    );
  });

  test('merging is exact: any split of the values merges to the same sketch', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 100_000 })), fc.nat(), (prices, cut) => {
        const at = prices.length === 0 ? 0 : cut % prices.length;
        const merged = sketchOf(prices.slice(at));
        sketchMerge(merged, sketchOf(prices.slice(0, at)));
        assert.deepEqual(merged, sketchOf(prices));
      }),
    );
  });
});
