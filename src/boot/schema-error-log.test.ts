import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { manualClock } from '../domain/clock.ts';
import { schemaErrorLog } from './schema-runtime.ts';

describe('item schema error log (issue 27 point 5)', () => {
  test('an outage read every 250 ms logs once a minute per cause, with the count left out', () => {
    const clock = manualClock();
    const lines: [string, number | undefined][] = [];
    const log = schemaErrorLog(
      {
        error: (fields, message) =>
          lines.push([message, (fields as { suppressed?: number }).suppressed]),
      },
      clock,
    );
    const outage = new Error('connect ECONNREFUSED 127.0.0.1:5432');
    for (let tick = 0; tick <= 240; tick += 1) {
      log(outage, 'reading the game switch');
      if (tick === 10) log(outage, 'refreshing the snapshot');
      clock.advance(250);
    }
    assert.deepEqual(lines, [
      ['item schema: reading the game switch failed', undefined],
      ['item schema: refreshing the snapshot failed', undefined],
      ['item schema: reading the game switch failed', 239],
    ]);
  });
});
