import { test } from 'node:test';
import assert from 'node:assert/strict';
import { HOUR, MINUTE } from '../../domain/clock.ts';
import { conditionAt, outageAt } from './faults.ts';
import { TEST_CATALOGS } from './test-catalog.ts';
import { createSimWorld } from './world.ts';

const DAY_START = Date.parse('2026-11-01T00:00:00Z');

/** The first minute of a buff163 outage in the week from DAY_START (the seed holds several). */
function firstOutageMinute(): number {
  const world = createSimWorld({ seed: 42, catalogs: TEST_CATALOGS });
  for (let at = DAY_START; at < DAY_START + 7 * 24 * HOUR; at += MINUTE) {
    if (outageAt(world, 'buff163', at) !== null) return at;
  }
  throw new Error('no buff163 outage in a week');
}

test('a simulated start is fault-free until faultsFrom, then the outages come back', () => {
  const outage = firstOutageMinute();
  const startedInside = createSimWorld({
    seed: 42,
    catalogs: TEST_CATALOGS,
    faultsFrom: outage + 15 * MINUTE,
  });
  assert.equal(conditionAt(startedInside, 'buff163', outage).kind, 'up');
  assert.equal(outageAt(startedInside, 'buff163', outage), null);
  const always = createSimWorld({ seed: 42, catalogs: TEST_CATALOGS });
  assert.equal(conditionAt(always, 'buff163', outage).kind, 'down');
  const later = outage + 15 * MINUTE;
  assert.ok(later < outageAt(always, 'buff163', outage)!.end, 'outages last at least 20 minutes');
  assert.equal(conditionAt(startedInside, 'buff163', later).kind, 'down');
});
