import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { MINOR_UNITS } from '../domain/money.ts';
import {
  convertToUsdCents,
  DEFAULT_FX,
  FxTableError,
  loadFxTable,
  parseFxTable,
  type FxTable,
} from './fx.ts';

const table: FxTable = {
  asOf: 0,
  source: 'test',
  usdMicroPerUnit: { USD: 1_000_000, EUR: 1_085_000, CNY: 140_000, RUB: 11_000, JPY: 6_700 },
};

function cents(price: number, scale: number, currency: string, fx = table): number {
  const result = convertToUsdCents(price, scale, currency, fx);
  assert.ok(result.ok, JSON.stringify(result));
  return result.cents;
}

describe('convertToUsdCents', () => {
  test('USD cents pass through unchanged', () => {
    assert.equal(cents(1550, 100, 'USD'), 1550);
    assert.equal(cents(1, 100, 'USD'), 1);
  });

  test('milli-USD rounds half up to whole cents', () => {
    assert.equal(cents(15_500, 1000, 'USD'), 1550);
    assert.equal(cents(15_504, 1000, 'USD'), 1550);
    assert.equal(cents(15_505, 1000, 'USD'), 1551);
    assert.equal(cents(5, 1000, 'USD'), 1);
    assert.equal(cents(4, 1000, 'USD'), 0);
  });

  test('EUR at 1.085: exact and half-up cases', () => {
    assert.equal(cents(1000, 100, 'EUR'), 1085);
    assert.equal(cents(100, 100, 'EUR'), 109); // 108.5 → 109
    assert.equal(cents(1, 100, 'EUR'), 1); // 1.085 → 1
  });

  test('CNY at 0.14: decimals in fen', () => {
    assert.equal(cents(10_000, 100, 'CNY'), 1400);
    assert.equal(cents(1234, 100, 'CNY'), 173); // 172.76
    assert.equal(cents(25, 100, 'CNY'), 4); // 3.5 → 4
    assert.equal(cents(24, 100, 'CNY'), 3); // 3.36
  });

  test('RUB kopeks and JPY whole yen', () => {
    assert.equal(cents(10_000, 100, 'RUB'), 110);
    assert.equal(cents(1000, 1, 'JPY'), 670);
  });

  test('unknown currency, fractional price and bad scale are wrong_unit', () => {
    for (const [price, scale, currency] of [
      [100, 100, 'XYZ'],
      [100, 100, 'toString'],
      [15.5, 100, 'USD'],
      [100, 0, 'USD'],
      [100, -100, 'USD'],
      [100, 2.5, 'USD'],
    ] as const) {
      const result = convertToUsdCents(price, scale, currency, table);
      assert.equal(result.ok, false, `${price} ${scale} ${currency}`);
      if (!result.ok) assert.equal(result.reason, 'wrong_unit');
    }
  });

  test('property: USD milli-units equal cents rounded half up', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1e12 }), (milli) => {
        assert.equal(cents(milli, 1000, 'USD'), Math.floor((milli + 5) / 10));
      }),
    );
  });

  test('property: conversion is monotonic in the price', () => {
    fc.assert(
      fc.property(fc.nat(1e9), fc.nat(1e6), (price, delta) => {
        assert.ok(cents(price, 100, 'CNY') <= cents(price + delta, 100, 'CNY'));
      }),
    );
  });
});

describe('DEFAULT_FX', () => {
  test('covers every currency with a minor-unit scale and is dated', () => {
    for (const currency of Object.keys(MINOR_UNITS)) {
      assert.ok(Number.isSafeInteger(DEFAULT_FX.usdMicroPerUnit[currency]), currency);
    }
    assert.equal(DEFAULT_FX.usdMicroPerUnit.USD, 1_000_000);
    assert.equal(new Date(DEFAULT_FX.asOf).toISOString(), '2025-06-02T00:00:00.000Z');
  });
});

describe('parseFxTable / loadFxTable', () => {
  test('parses ISO asOf and forces USD to the base', () => {
    const parsed = parseFxTable({
      asOf: '2026-10-01T00:00:00Z',
      usdMicroPerUnit: { EUR: 1_100_000 },
    });
    assert.equal(parsed.asOf, Date.parse('2026-10-01T00:00:00Z'));
    assert.deepEqual(parsed.usdMicroPerUnit, { EUR: 1_100_000, USD: 1_000_000 });
  });

  test('lists every problem in one clear error', () => {
    assert.throws(
      () =>
        parseFxTable({
          asOf: 'yesterday',
          usdMicroPerUnit: { EUR: 1.08, eur: 5, USD: 2, GBP: -1 },
        }),
      (error: Error) =>
        error instanceof FxTableError &&
        /asOf must be/.test(error.message) &&
        /rate for EUR must be a positive integer/.test(error.message) &&
        /"eur" is not a 3-letter currency code/.test(error.message) &&
        /USD must be 1000000/.test(error.message) &&
        /rate for GBP/.test(error.message),
    );
    assert.throws(() => parseFxTable([]), FxTableError);
    assert.throws(() => parseFxTable({ asOf: 1 }), /usdMicroPerUnit must be an object/);
  });

  test('a file overrides some rates over the built-in snapshot', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'fx-'));
    try {
      const path = join(dir, 'fx.json');
      const doc = {
        asOf: '2026-10-01T00:00:00Z',
        source: 'ecb',
        usdMicroPerUnit: { CNY: 138_500 },
      };
      await writeFile(path, JSON.stringify(doc));
      const loaded = await loadFxTable(path);
      assert.equal(loaded.source, 'ecb');
      assert.equal(loaded.usdMicroPerUnit.CNY, 138_500);
      assert.equal(loaded.usdMicroPerUnit.EUR, DEFAULT_FX.usdMicroPerUnit.EUR);

      await writeFile(path, '{ not json');
      await assert.rejects(loadFxTable(path), /FX file .*fx\.json: invalid JSON/);
      await assert.rejects(loadFxTable(join(dir, 'missing.json')), /cannot read/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
