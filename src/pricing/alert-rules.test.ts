import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  conditionValueProblem,
  evaluateAlert,
  FRESH_MEMORY,
  movedAtLeast,
  type AlertCondition,
  type AlertMemory,
  type TopOfBook,
} from './alert-rules.ts';

const T0 = Date.parse('2026-11-01T00:00:00Z');

function top(bestAsk: number | null, bestBid: number | null = null): TopOfBook {
  const spreadBps =
    bestAsk !== null && bestBid !== null && bestBid > 0
      ? Math.round(((bestAsk - bestBid) * 10_000) / bestBid)
      : null;
  return { bestAsk, bestBid, spreadBps };
}

/** Runs the alert over a sequence of (top, seconds after T0) and returns the firing times. */
function firings(
  condition: AlertCondition,
  cooldownSeconds: number,
  steps: [TopOfBook, number][],
): number[] {
  let memory: AlertMemory = FRESH_MEMORY;
  const fired: number[] = [];
  for (const [book, seconds] of steps) {
    const result = evaluateAlert(condition, cooldownSeconds, memory, book, T0 + seconds * 1000);
    memory = result.memory;
    if (result.fired) fired.push(seconds);
  }
  return fired;
}

describe('threshold conditions', () => {
  const cases: [AlertCondition['type'], number, TopOfBook, boolean][] = [
    ['ask_below', 1000, top(999), true],
    ['ask_below', 1000, top(1000), false],
    ['ask_below', 1000, top(null), false],
    ['ask_above', 1000, top(1001), true],
    ['ask_above', 1000, top(1000), false],
    ['bid_above', 900, top(1000, 901), true],
    ['bid_above', 900, top(1000, 900), false],
    ['bid_below', 900, top(1000, 899), true],
    ['bid_below', 900, top(1000, null), false],
    ['spread_below_bps', 200, top(1010, 1000), true],
    ['spread_below_bps', 100, top(1010, 1000), false],
    ['spread_below_bps', 100, top(1010, null), false],
  ];
  for (const [type, value, book, expected] of cases) {
    test(`${type} ${value} on ask ${book.bestAsk} bid ${book.bestBid}: ${expected}`, () => {
      const result = evaluateAlert({ type, value }, 0, FRESH_MEMORY, book, T0);
      assert.equal(result.fired, expected);
    });
  }

  test('fires once while the condition holds, again after it turned false', () => {
    const steps: [TopOfBook, number][] = [
      [top(999), 0],
      [top(990), 100],
      [top(1001), 200],
      [top(995), 300],
    ];
    assert.deepEqual(firings({ type: 'ask_below', value: 1000 }, 0, steps), [0, 300]);
  });

  test('a re-crossing inside the cooldown fires when the cooldown ends if it still holds', () => {
    const steps: [TopOfBook, number][] = [
      [top(999), 0],
      [top(1001), 10],
      [top(998), 20],
      [top(997), 59],
      [top(996), 60],
    ];
    assert.deepEqual(firings({ type: 'ask_below', value: 1000 }, 60, steps), [0, 60]);
  });
});

describe('move_bps', () => {
  test('fires when the ask moved the value from where it last fired, either way', () => {
    const steps: [TopOfBook, number][] = [
      [top(10_000), 0],
      [top(10_099), 1],
      [top(10_100), 2],
      [top(10_050), 3],
      [top(9_999), 4],
    ];
    assert.deepEqual(firings({ type: 'move_bps', value: 100 }, 0, steps), [2, 4]);
  });

  test('the cooldown holds a move back; the reference stays where it last fired', () => {
    const steps: [TopOfBook, number][] = [
      [top(10_000), 0],
      [top(10_200), 1],
      [top(10_400), 5],
      [top(10_400), 31],
    ];
    assert.deepEqual(firings({ type: 'move_bps', value: 100 }, 30, steps), [1, 31]);
  });

  test('movedAtLeast agrees with exact rational arithmetic', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 10_000_000 }),
        fc.integer({ min: 0, max: 10_000_000 }),
        fc.integer({ min: 1, max: 10_000 }),
        (reference, ask, bps) => {
          const exact =
            BigInt(Math.abs(ask - reference)) * 10_000n >= BigInt(bps) * BigInt(reference);
          assert.equal(movedAtLeast(ask, reference, bps), exact);
        },
      ),
    );
  });
});

describe('properties', () => {
  const conditionArb = fc.record({
    type: fc.constantFrom(
      'ask_below',
      'ask_above',
      'bid_above',
      'bid_below',
      'spread_below_bps',
      'move_bps',
    ) as fc.Arbitrary<AlertCondition['type']>,
    value: fc.integer({ min: 1, max: 10_000 }),
  });
  const stepArb = fc.tuple(
    fc.option(fc.integer({ min: 1, max: 20_000 })),
    fc.option(fc.integer({ min: 1, max: 20_000 })),
    fc.integer({ min: 0, max: 600 }),
  );

  test('two firings are never closer than the cooldown', () => {
    fc.assert(
      fc.property(
        conditionArb,
        fc.integer({ min: 0, max: 300 }),
        fc.array(stepArb, { maxLength: 60 }),
        (condition, cooldown, raw) => {
          let seconds = 0;
          const steps = raw.map(([a, b, gap]): [TopOfBook, number] => {
            seconds += gap;
            return [top(a, b), seconds];
          });
          const fired = firings(condition, cooldown, steps);
          for (let i = 1; i < fired.length; i++) {
            assert.ok(fired[i]! - fired[i - 1]! >= cooldown);
          }
        },
      ),
    );
  });

  test('a threshold condition that never holds never fires', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1000, max: 20_000 })), (asks) => {
        const steps = asks.map((ask, i): [TopOfBook, number] => [top(ask), i]);
        assert.deepEqual(firings({ type: 'ask_below', value: 1000 }, 0, steps), []);
      }),
    );
  });
});

describe('conditionValueProblem', () => {
  test('integers only, bps at most 10000', () => {
    assert.equal(conditionValueProblem({ type: 'ask_below', value: 1500 }), null);
    assert.match(conditionValueProblem({ type: 'ask_below', value: 12.5 }) ?? '', /integer/);
    assert.match(conditionValueProblem({ type: 'ask_below', value: 0 }) ?? '', /positive/);
    assert.match(conditionValueProblem({ type: 'move_bps', value: 10_001 }) ?? '', /10000/);
    assert.equal(conditionValueProblem({ type: 'ask_above', value: 50_000 }), null);
  });
});
