import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { DAY, HOUR } from '../domain/clock.ts';
import { badgeForHours, classify, estimatedSaleTime, labelOf, scoreOf } from './classify.ts';

describe('badge boundaries (median hours on the best market)', () => {
  const cases: [number, string][] = [
    [0, 'EXTREMELY_LIQUID'],
    [1.99, 'EXTREMELY_LIQUID'],
    [2, 'VERY_LIQUID'],
    [11.99, 'VERY_LIQUID'],
    [12, 'LIQUID'],
    [47.99, 'LIQUID'],
    [48, 'ILLIQUID'],
    [167.99, 'ILLIQUID'],
    [168, 'VERY_ILLIQUID'],
    [719.99, 'VERY_ILLIQUID'],
    [720, 'EXTREMELY_ILLIQUID'],
    [100_000, 'EXTREMELY_ILLIQUID'],
  ];
  for (const [hours, badge] of cases) {
    test(`${hours} h → ${badge}`, () => assert.equal(badgeForHours(hours), badge));
  }
});

describe('caps by the age of the best market’s sales data', () => {
  test('exactly 6 h old: no cap; a millisecond older: at most VERY_LIQUID', () => {
    assert.equal(classify(1, 6 * HOUR), 'EXTREMELY_LIQUID');
    assert.equal(classify(1, 6 * HOUR + 1), 'VERY_LIQUID');
  });

  test('exactly 1 day old: at most VERY_LIQUID; older: at most LIQUID', () => {
    assert.equal(classify(1, DAY), 'VERY_LIQUID');
    assert.equal(classify(1, DAY + 1), 'LIQUID');
    assert.equal(classify(5, DAY + 1), 'LIQUID');
  });

  test('a cap never makes a badge more liquid', () => {
    assert.equal(classify(100, 2 * DAY), 'ILLIQUID');
    assert.equal(classify(20, 7 * HOUR), 'LIQUID');
  });

  test('no estimate: INSUFFICIENT_DATA, label unknown, score null', () => {
    assert.equal(classify(null, null), 'INSUFFICIENT_DATA');
    assert.equal(labelOf('INSUFFICIENT_DATA'), 'unknown');
    assert.equal(labelOf('VERY_ILLIQUID'), 'very_illiquid');
    assert.equal(scoreOf(null), null);
  });
});

describe('score and sale-time text', () => {
  test('score: 100 at once, 0 from 90 days, falling in between', () => {
    assert.equal(scoreOf(0), 100);
    assert.equal(scoreOf(90 * 24), 0);
    assert.equal(scoreOf(1000 * 24), 0);
    const scores = [1, 2, 12, 48, 168, 720].map((hours) => scoreOf(hours)!);
    for (let i = 1; i < scores.length; i += 1) assert.ok(scores[i]! < scores[i - 1]!);
  });

  test('hours under a 48-hour p90, days from it; at least one unit wide', () => {
    assert.equal(estimatedSaleTime(2.4, 5.2), '2 - 6 hours');
    assert.equal(estimatedSaleTime(0.2, 0.7), '0 - 1 hours');
    assert.equal(estimatedSaleTime(240, 330), '10 - 14 days');
    assert.equal(estimatedSaleTime(30, 48), '1 - 2 days');
    assert.equal(estimatedSaleTime(null, null), 'Insufficient data');
  });
});
