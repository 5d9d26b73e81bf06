import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { hashString, mix, poisson, seedKey, uniform, valueNoise } from './random.ts';

describe('simulator randomness', () => {
  test('hashes are stable and spread', () => {
    assert.equal(hashString('buff163'), hashString('buff163'));
    assert.notEqual(mix(1, 2), mix(2, 1));
    assert.notEqual(mix(1, 2 ** 40), mix(1, 2 ** 40 + 2 ** 32));
    assert.notEqual(seedKey(1), seedKey('1'));
    let sum = 0;
    for (let index = 0; index < 10_000; index += 1) sum += uniform(99, index);
    assert.ok(Math.abs(sum / 10_000 - 0.5) < 0.02);
  });

  test('value noise stays in [-1, 1] and is continuous', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 2 ** 31 }),
        fc.integer({ min: 0, max: 4e12 }),
        (key, time) => {
          const here = valueNoise(key, time, 600_000);
          assert.ok(here >= -1 && here <= 1);
          assert.ok(Math.abs(valueNoise(key, time + 1000, 600_000) - here) < 0.01);
        },
      ),
    );
  });

  test('poisson counts average lambda', () => {
    for (const lambda of [0.1, 1.7, 6]) {
      let total = 0;
      for (let index = 0; index < 20_000; index += 1) total += poisson(lambda, uniform(7, index));
      assert.ok(Math.abs(total / 20_000 / lambda - 1) < 0.05, `lambda ${lambda}`);
    }
    assert.equal(poisson(0, 0.9), 0);
  });
});
