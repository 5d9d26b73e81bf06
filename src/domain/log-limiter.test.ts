import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { manualClock, SECOND } from './clock.ts';
import { limitPerCause } from './log-limiter.ts';

function recorder() {
  const lines: { fields: object; message: string }[] = [];
  return { lines, log: (fields: object, message: string) => lines.push({ fields, message }) };
}

describe('limitPerCause', () => {
  test('a cause repeating four times a second is logged once per interval, with the count', () => {
    const clock = manualClock();
    const { lines, log } = recorder();
    const limited = limitPerCause(log, { clock, intervalMs: 60 * SECOND });
    for (let tick = 0; tick < 4 * 150; tick += 1) {
      limited({ err: 'ECONNREFUSED' }, 'item schema: reading the game switch failed');
      clock.advance(250);
    }
    assert.deepEqual(lines, [
      { fields: { err: 'ECONNREFUSED' }, message: 'item schema: reading the game switch failed' },
      {
        fields: { err: 'ECONNREFUSED', suppressed: 239 },
        message: 'item schema: reading the game switch failed',
      },
      {
        fields: { err: 'ECONNREFUSED', suppressed: 239 },
        message: 'item schema: reading the game switch failed',
      },
    ]);
  });

  test('each cause has its own allowance', () => {
    const clock = manualClock();
    const { lines, log } = recorder();
    const limited = limitPerCause(log, { clock, intervalMs: SECOND });
    limited({}, 'a failed');
    limited({}, 'b failed');
    limited({}, 'a failed');
    clock.advance(SECOND - 1);
    limited({}, 'b failed');
    assert.deepEqual(
      lines.map((line) => line.message),
      ['a failed', 'b failed'],
    );
    clock.advance(1);
    limited({}, 'b failed');
    assert.deepEqual(lines.at(-1), { fields: { suppressed: 1 }, message: 'b failed' });
  });

  test('forgets the oldest cause beyond maxCauses, so memory stays bounded', () => {
    const clock = manualClock();
    const { lines, log } = recorder();
    const limited = limitPerCause(log, { clock, maxCauses: 2 });
    for (const message of ['a', 'b', 'c', 'a']) limited({}, message);
    assert.deepEqual(
      lines.map((line) => line.message),
      ['a', 'b', 'c', 'a'],
      'a was forgotten when c arrived, so it logs again',
    );
    limited({}, 'c');
    assert.equal(lines.length, 4, 'c is still remembered');
  });
});
