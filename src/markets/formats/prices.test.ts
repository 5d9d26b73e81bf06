import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { parseDecimal } from '../../domain/money.ts';
import { decimalUnits, integerPrice } from './prices.ts';

describe('decimalUnits', () => {
  test('agrees with parseDecimal on numbers and decimal strings (-0 read as 0)', () => {
    const decimalText = fc
      .tuple(fc.nat({ max: 10_000_000 }), fc.nat({ max: 99_999 }), fc.integer({ min: 0, max: 5 }))
      .map(([whole, fraction, digits]) =>
        digits === 0
          ? `${whole}`
          : `${whole}.${String(fraction).padStart(5, '0').slice(0, digits)}`,
      );
    const value = fc.oneof(
      decimalText,
      fc.double({ min: -1e7, max: 1e7, noNaN: true }),
      fc.string(),
      fc.constant(' 12.5 '),
      fc.constant('1,234.5'),
    );
    fc.assert(
      fc.property(value, fc.constantFrom(1, 100, 1000), (input, scale) => {
        const digits = Math.round(Math.log10(scale));
        const plusZero = (units: number | null) => (units === null ? null : units + 0);
        assert.equal(
          plusZero(decimalUnits(input, scale, digits)),
          plusZero(parseDecimal(input, scale)),
        );
      }),
      { numRuns: 2000 },
    );
  });
});

describe('integerPrice', () => {
  test('accepts integers and integer strings, flags fractions as a unit error', () => {
    assert.deepEqual(integerPrice(1250), { ok: true, value: 1250 });
    assert.deepEqual(integerPrice('1250'), { ok: true, value: 1250 });
    const fraction = integerPrice(12.5);
    assert.equal(!fraction.ok && fraction.rejection.reason, 'wrong_unit');
    const negative = integerPrice(-5);
    assert.equal(!negative.ok && negative.rejection.reason, 'negative_price');
  });
});
