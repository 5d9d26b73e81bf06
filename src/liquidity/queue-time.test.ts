import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  betaPrimeCdf,
  betaPrimeQuantile,
  EXACT_SHAPE_LIMIT,
  exactQuantile,
  queueTimes,
} from './queue-time.ts';

const close = (actual: number, expected: number, relative = 1e-6) =>
  assert.ok(
    Math.abs(actual - expected) <= relative * Math.abs(expected),
    `${actual} vs ${expected}`,
  );

describe('betaPrimeQuantile', () => {
  test('first in the queue: closed form (1 − q)^(−1/b) − 1', () => {
    for (const b of [3, 10, 250]) {
      for (const q of [0.5, 0.9]) close(betaPrimeQuantile(1, b, q), (1 - q) ** (-1 / b) - 1);
    }
  });

  test('with overwhelming evidence it is the Erlang quantile over b', () => {
    const b = 1e9;
    close(betaPrimeQuantile(1, b, 0.5) * b, Math.LN2, 1e-5);
    close(betaPrimeQuantile(1, b, 0.9) * b, Math.LN10, 1e-5);
    const x = betaPrimeQuantile(2, b, 0.9) * b;
    close(1 - (1 + x) * Math.exp(-x), 0.9, 1e-5);
  });

  test('the CDF at the quantile is the probability', () => {
    for (const [a, b] of [
      [1, 3],
      [5, 10],
      [60, 40],
    ] as const) {
      close(betaPrimeCdf(a, b, betaPrimeQuantile(a, b, 0.9)), 0.9, 1e-9);
    }
  });

  test('Paulson above the exact limit agrees with the exact solution within 1%', () => {
    for (const a of [EXACT_SHAPE_LIMIT + 1, 150, 400]) {
      for (const b of [10, 100, 5000]) {
        for (const q of [0.5, 0.9]) close(betaPrimeQuantile(a, b, q), exactQuantile(a, b, q), 0.01);
      }
    }
  });

  test('refuses a shape that is not a whole number ≥ 1, or no evidence', () => {
    assert.throws(() => betaPrimeQuantile(0, 5, 0.5));
    assert.throws(() => betaPrimeQuantile(1.5, 5, 0.5));
    assert.throws(() => betaPrimeQuantile(1, 0, 0.5));
  });

  test('property: later with more ahead, sooner with more evidence, p90 above the median', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 200 }), fc.integer({ min: 3, max: 2000 }), (a, b) => {
        assert.ok(betaPrimeQuantile(a + 1, b, 0.5) > betaPrimeQuantile(a, b, 0.5));
        assert.ok(betaPrimeQuantile(a, b, 0.9) > betaPrimeQuantile(a, b, 0.5));
        assert.ok(betaPrimeQuantile(a, b + 50, 0.9) * (b + 50) < betaPrimeQuantile(a, b, 0.9) * b);
      }),
      { numRuns: 200 },
    );
  });
});

describe('queueTimes', () => {
  test('10 units a day seen over 3 days (30 units), nobody ahead', () => {
    const times = queueTimes(0, 10, 30)!;
    close(times.medianHours, (2 ** (1 / 30) - 1) * 72);
    close(times.p90Hours, (10 ** (1 / 30) - 1) * 72);
    assert.ok(times.p90Hours > (Math.LN10 / 10) * 24);
  });

  test('no sales: no estimate', () => {
    assert.equal(queueTimes(3, 0, 0), null);
  });

  test('property: doubling the rate on the same evidence halves the times', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 300 }),
        fc.double({ min: 0.01, max: 5000, noNaN: true }),
        fc.integer({ min: 3, max: 5000 }),
        (ahead, rate, units) => {
          const once = queueTimes(ahead, rate, units)!;
          const twice = queueTimes(ahead, rate * 2, units)!;
          close(twice.medianHours * 2, once.medianHours, 1e-9);
          close(twice.p90Hours * 2, once.p90Hours, 1e-9);
        },
      ),
      { numRuns: 200 },
    );
  });
});
