import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { parseDecimal } from '../../domain/money.ts';
import { decimalPrice } from '../formats/prices.ts';
import { decimalNumber, decimalString, unitPrices } from './wire.ts';

describe('decimalString', () => {
  test('writes minor units as trimmed decimals that parse back exactly', () => {
    assert.equal(decimalString(7750, 100), '77.5');
    assert.equal(decimalString(7400, 100), '74');
    assert.equal(decimalString(3, 100), '0.03');
    assert.equal(decimalString(12_345, 1000), '12.345');
    for (const units of [1, 9, 10, 99, 100, 101, 123_456_789]) {
      assert.equal(parseDecimal(decimalString(units, 100), 100), units);
    }
  });
});

describe('decimalNumber', () => {
  test('reads back exactly through decimalPrice', () => {
    const read = decimalPrice(100);
    for (let units = 1; units < 100_000; units += 7) {
      assert.deepEqual(read(decimalNumber(units, 100)), { ok: true, value: units });
    }
    assert.deepEqual(decimalPrice(1000)(decimalNumber(12_345_679, 1000)), {
      ok: true,
      value: 12_345_679,
    });
  });
});

describe('unitPrices', () => {
  test('lists every sold unit once, cheapest first, numerically', () => {
    const sales = [
      { price: 1000, quantity: 1, soldAt: 1 },
      { price: 90, quantity: 3, soldAt: 2 },
      { price: 200, quantity: 1, soldAt: 3 },
    ];
    assert.deepEqual([...unitPrices(sales)], [90, 90, 90, 200, 1000]);
    assert.equal(unitPrices([]).length, 0);
  });
});
