import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { Level } from '../domain/quote.ts';
import { mergeLevels, normaliseLevels, PRICE_CEILING_CENTS, priceToCents } from './levels.ts';
import { TEST_FX } from './test-fixtures.ts';

const USD = { currency: 'USD', scale: 100 };

describe('priceToCents', () => {
  test('accepts prices from 1 cent up to the ceiling', () => {
    assert.deepEqual(priceToCents(1, USD, TEST_FX), { ok: true, value: 1 });
    assert.deepEqual(priceToCents(PRICE_CEILING_CENTS, USD, TEST_FX), {
      ok: true,
      value: PRICE_CEILING_CENTS,
    });
  });

  test('reasons: negative, zero, rounds to zero, above ceiling, wrong unit', () => {
    const reason = (price: number, unit = USD) => {
      const result = priceToCents(price, unit, TEST_FX);
      return result.ok ? 'ok' : result.problem.reason;
    };
    assert.equal(reason(-1), 'negative_price');
    assert.equal(reason(0), 'absurd_price');
    assert.equal(reason(4, { currency: 'USD', scale: 1000 }), 'absurd_price');
    assert.equal(reason(PRICE_CEILING_CENTS + 1), 'absurd_price');
    assert.equal(reason(12.5), 'wrong_unit');
    assert.equal(reason(100, { currency: 'ZZZ', scale: 100 }), 'wrong_unit');
  });
});

describe('normaliseLevels', () => {
  test('asks: converted, sorted ascending, equal prices merged', () => {
    const result = normaliseLevels(
      [
        { price: 1600, quantity: 1, orders: 1 },
        { price: 1550, quantity: 2, orders: 2 },
        { price: 1600, quantity: 4, orders: 3 },
      ],
      'ask',
      USD,
      TEST_FX,
    );
    assert.deepEqual(result, {
      ok: true,
      value: [
        { price: 1550, quantity: 2, orders: 2 },
        { price: 1600, quantity: 5, orders: 4 },
      ],
    });
  });

  test('bids: sorted descending; prices equal only after conversion still merge', () => {
    // milli-USD 15_501 and 15_504 both round to 1550 cents
    const result = normaliseLevels(
      [
        { price: 15_501, quantity: 1, orders: null },
        { price: 16_000, quantity: 1, orders: 1 },
        { price: 15_504, quantity: 2, orders: 5 },
      ],
      'bid',
      { currency: 'USD', scale: 1000 },
      TEST_FX,
    );
    assert.deepEqual(result, {
      ok: true,
      value: [
        { price: 1600, quantity: 1, orders: 1 },
        { price: 1550, quantity: 3, orders: null },
      ],
    });
  });

  test('bad quantity or orders is malformed, one bad price rejects the ladder', () => {
    const check = (level: { price: number; quantity: number; orders: number | null }) => {
      const result = normaliseLevels(
        [{ price: 100, quantity: 1, orders: 1 }, level],
        'ask',
        USD,
        TEST_FX,
      );
      return result.ok ? 'ok' : result.problem;
    };
    assert.deepEqual(check({ price: 100, quantity: 0, orders: 1 }), {
      reason: 'malformed',
      detail: 'level 1: quantity 0 is not a positive integer',
    });
    assert.equal(
      (check({ price: 100, quantity: 1.5, orders: 1 }) as { reason: string }).reason,
      'malformed',
    );
    assert.equal(
      (check({ price: 100, quantity: 1, orders: 0 }) as { reason: string }).reason,
      'malformed',
    );
    assert.equal(
      (check({ price: -5, quantity: 1, orders: 1 }) as { reason: string }).reason,
      'negative_price',
    );
  });

  test('a level below half a cent: an ask level is raised to 1 cent, a bid level dropped, never the side', () => {
    // CNY at 0.14 USD (TEST_FX): 3 fen = 0.42 cents, 300 fen = 42 cents, 2 fen = 0.28 cents
    const cny = { currency: 'CNY', scale: 100 };
    const rate = TEST_FX.usdMicroPerUnit.CNY!;
    assert.ok(rate * 0.03 < 5_000 && rate * 3 > 5_000, `CNY rate ${rate} keeps the arithmetic`);
    const ladder = [
      { price: 3, quantity: 1, orders: 1 },
      { price: 300, quantity: 2, orders: 2 },
      { price: 2, quantity: 4, orders: 1 },
    ];
    const cents = Math.round((rate * 3) / 10_000);
    assert.deepEqual(normaliseLevels(ladder, 'ask', cny, TEST_FX), {
      ok: true,
      value: [
        { price: 1, quantity: 5, orders: 2 },
        { price: cents, quantity: 2, orders: 2 },
      ],
    });
    assert.deepEqual(normaliseLevels(ladder, 'bid', cny, TEST_FX), {
      ok: true,
      value: [{ price: cents, quantity: 2, orders: 2 }],
    });
    const onlySubCent = normaliseLevels([ladder[0]!], 'bid', cny, TEST_FX);
    assert.equal(onlySubCent.ok ? 'ok' : onlySubCent.problem.reason, 'absurd_price');
  });

  test('an empty ladder is valid (no quotes on that side)', () => {
    assert.deepEqual(normaliseLevels([], 'bid', USD, TEST_FX), { ok: true, value: [] });
  });
});

describe('mergeLevels properties', () => {
  const levelArb = fc.record({
    price: fc.integer({ min: 1, max: 50 }),
    quantity: fc.integer({ min: 1, max: 20 }),
    orders: fc.option(fc.integer({ min: 1, max: 5 }), { nil: null }),
  });

  test('strictly best first, unique prices, quantity preserved', () => {
    fc.assert(
      fc.property(
        fc.array(levelArb),
        fc.constantFrom('ask' as const, 'bid' as const),
        (levels, side) => {
          const merged: Level[] = mergeLevels(levels, side);
          for (let i = 1; i < merged.length; i += 1) {
            const [prev, next] = [merged[i - 1]!.price, merged[i]!.price];
            assert.ok(side === 'ask' ? prev < next : prev > next);
          }
          const total = (list: readonly Level[]) =>
            list.reduce((sum, level) => sum + level.quantity, 0);
          assert.equal(total(merged), total(levels));
          assert.equal(merged.length, new Set(levels.map((level) => level.price)).size);
        },
      ),
    );
  });
});
