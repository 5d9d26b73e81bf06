import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { SECOND } from '../domain/clock.ts';
import { RejectionTracker, type RejectionEvent } from './rejections.ts';
import { capturingLogger } from './test-fixtures.ts';

const T0 = Date.parse('2026-11-01T00:00:00Z');

function rejection(overrides: Partial<RejectionEvent> = {}): RejectionEvent {
  return {
    market: 'skinport',
    reason: 'unknown_item',
    detail: 'not in catalog',
    item: 'X',
    ...overrides,
  };
}

describe('RejectionTracker', () => {
  test('counts per market and reason', () => {
    const tracker = new RejectionTracker(capturingLogger());
    tracker.record(
      [
        rejection(),
        rejection(),
        rejection({ reason: 'absurd_price' }),
        rejection({ market: 'buff163', reason: 'wrong_unit' }),
      ],
      T0,
    );
    assert.deepEqual(tracker.counts(), [
      { market: 'buff163', reason: 'wrong_unit', count: 1 },
      { market: 'skinport', reason: 'absurd_price', count: 1 },
      { market: 'skinport', reason: 'unknown_item', count: 2 },
    ]);
    assert.deepEqual(tracker.countsFor('skinport'), { unknown_item: 2, absurd_price: 1 });
    assert.equal(tracker.total(), 4);
    assert.equal(tracker.total('buff163'), 1);
  });

  test('logs at most N lines per market per minute, then a summary of the suppressed', () => {
    const logger = capturingLogger();
    const tracker = new RejectionTracker(logger, 3);
    tracker.record(
      Array.from({ length: 10 }, () => rejection()),
      T0,
    );
    tracker.record([rejection({ market: 'dmarket' })], T0 + SECOND);
    assert.equal(
      logger.lines.filter(
        (line) => line.obj && (line.obj as { market: string }).market === 'skinport',
      ).length,
      3,
    );
    assert.equal(logger.lines.length, 4);
    assert.deepEqual(logger.lines[0], {
      level: 'warn',
      obj: { market: 'skinport', reason: 'unknown_item', item: 'X', detail: 'not in catalog' },
      msg: 'observation rejected',
    });

    tracker.record([rejection()], T0 + 59 * SECOND);
    assert.equal(logger.lines.length, 4);
    tracker.record([rejection(), rejection(), rejection()], T0 + 60 * SECOND);
    const after = logger.lines.slice(4);
    assert.deepEqual(after[0]?.obj, { market: 'skinport', suppressed: 8 });
    assert.equal(after.length, 3, 'summary counts toward the minute budget');
    assert.equal(tracker.total('skinport'), 14);
  });
});
