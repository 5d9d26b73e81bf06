import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { Level } from '../domain/quote.ts';
import {
  LevelCodecError,
  MAX_LEVEL_PRICE,
  decodeLevels,
  encodeLevels,
  encodeLevelsTransient,
} from './level-codec.ts';

const level: fc.Arbitrary<Level> = fc
  .tuple(
    fc.nat({ max: MAX_LEVEL_PRICE }),
    fc.maxSafeNat(),
    fc.option(fc.nat({ max: Number.MAX_SAFE_INTEGER - 1 }), { nil: null }),
  )
  .map(([price, quantity, orders]) => ({ price, quantity, orders }));

describe('level codec', () => {
  test('round-trips any list of integer levels, order kept', () => {
    fc.assert(
      fc.property(fc.array(level, { maxLength: 60, size: 'max' }), (levels) => {
        assert.deepEqual(decodeLevels(encodeLevels(levels)), levels);
      }),
    );
  });

  test('a ladder far longer than any before it round-trips (the scratch buffer grows)', () => {
    encodeLevels([{ price: 1, quantity: 1, orders: null }]);
    const ladder = Array.from({ length: 5000 }, (_, i) => ({
      price: 10_000_000 - i,
      quantity: i,
      orders: i % 2 === 0 ? null : i,
    }));
    assert.deepEqual(decodeLevels(encodeLevels(ladder)), ladder);
    assert.deepEqual(decodeLevels(encodeLevelsTransient(ladder.slice(1))), ladder.slice(1));
  });

  test('an empty side is one format byte', () => {
    const bytes = encodeLevels([]);
    assert.deepEqual([...bytes], [1]);
    assert.deepEqual(decodeLevels(bytes), []);
  });

  test('writes price deltas as zigzag varints', () => {
    const levels: Level[] = [
      { price: 300, quantity: 2, orders: null },
      { price: 299, quantity: 1, orders: 0 },
    ];
    // 300 -> zigzag 600 = 0xd8 0x04; -1 -> zigzag 1
    assert.deepEqual([...encodeLevels(levels)], [1, 0xd8, 0x04, 2, 0, 1, 1, 1]);
  });

  test('a 50-level ladder of realistic prices stays under 4 bytes per level', () => {
    const levels = Array.from({ length: 50 }, (_, i) => ({
      price: 123_456 + i * 25,
      quantity: 1 + (i % 3),
      orders: i % 2 === 0 ? null : 4,
    }));
    assert.ok(encodeLevels(levels).length < 1 + 50 * 4);
  });

  test('rejects floats, negatives, unsafe integers and prices above the cap', () => {
    const bad: Level[] = [
      { price: 12.5, quantity: 1, orders: null },
      { price: -1, quantity: 1, orders: null },
      { price: 100, quantity: 0.5, orders: null },
      { price: 100, quantity: 1, orders: -2 },
      { price: Number.NaN, quantity: 1, orders: null },
      { price: MAX_LEVEL_PRICE + 1, quantity: 1, orders: null },
      { price: 100, quantity: 2 ** 53, orders: null },
    ];
    for (const entry of bad) {
      assert.throws(() => encodeLevels([entry]), LevelCodecError);
    }
  });

  test('rejects an unknown format byte and truncated data', () => {
    assert.throws(() => decodeLevels(Uint8Array.of(9)), LevelCodecError);
    assert.throws(() => decodeLevels(Uint8Array.of(1, 0xd8)), LevelCodecError);
    assert.throws(() => decodeLevels(new Uint8Array(0)), LevelCodecError);
  });
});

describe('transient encoding', () => {
  test('matches encodeLevels byte for byte until the next call', () => {
    const levels = [{ price: 5, quantity: 1, orders: 7 }];
    const view = encodeLevelsTransient(levels);
    assert.deepEqual([...view], [...encodeLevels(levels)]);
  });
});
