import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { DAY, HOUR, MINUTE, manualClock } from '../domain/clock.ts';
import { FetchLog } from './fetch-log.ts';
import { fetchRecord, recordingStore } from './test-fixtures.ts';

const T0 = Date.parse('2026-11-01T00:00:00Z');

describe('FetchLog', () => {
  test('loads the last 24 h from the store at boot', async () => {
    const clock = manualClock(T0);
    const store = recordingStore([
      fetchRecord('skinport', T0 - DAY - MINUTE),
      fetchRecord('skinport', T0 - HOUR),
      fetchRecord('dmarket', T0 - MINUTE, false),
    ]);
    const log = new FetchLog(clock);
    assert.equal(await log.load(store), 2);
    assert.deepEqual(
      log.records(0).map((row) => [row.market, row.startedAt]),
      [
        ['skinport', T0 - HOUR],
        ['dmarket', T0 - MINUTE],
      ],
    );
  });

  test('byMarket filters by market and since; records stay ordered by startedAt', () => {
    const clock = manualClock(T0);
    const log = new FetchLog(clock);
    log.append(fetchRecord('skinport', T0 - 2 * MINUTE));
    log.append(fetchRecord('skinport', T0 - 4 * MINUTE));
    log.append(fetchRecord('dmarket', T0 - 3 * MINUTE));
    assert.deepEqual(
      log.byMarket('skinport', 0).map((row) => row.startedAt),
      [T0 - 4 * MINUTE, T0 - 2 * MINUTE],
    );
    assert.deepEqual(
      log.byMarket('skinport', T0 - 3 * MINUTE).map((row) => row.startedAt),
      [T0 - 2 * MINUTE],
    );
    assert.deepEqual(log.byMarket('csfloat', 0), []);
    assert.deepEqual(log.markets().sort(), ['dmarket', 'skinport']);
  });

  test('records leave the window as the clock moves', () => {
    const clock = manualClock(T0);
    const log = new FetchLog(clock, HOUR);
    log.append(fetchRecord('skinport', T0));
    log.append(fetchRecord('skinport', T0 + 30 * MINUTE));
    clock.advance(HOUR + MINUTE);
    assert.deepEqual(
      log.byMarket('skinport', 0).map((row) => row.startedAt),
      [T0 + 30 * MINUTE],
    );
    clock.advance(HOUR);
    assert.deepEqual(log.records(0), []);
  });

  test('lastSuccess per market and game ignores failures and outlives the window', () => {
    const clock = manualClock(T0);
    const log = new FetchLog(clock, HOUR);
    const ok = fetchRecord('skinport', T0);
    log.append(ok);
    log.append(fetchRecord('skinport', T0 + MINUTE, false));
    log.append({ ...fetchRecord('skinport', T0 + 2 * MINUTE), game: 'rust' });
    assert.equal(log.lastSuccess('skinport', 'cs2'), ok);
    assert.equal(log.lastSuccess('skinport', 'rust')?.startedAt, T0 + 2 * MINUTE);
    assert.equal(log.lastSuccess('dmarket', 'cs2'), null);
    clock.advance(3 * HOUR);
    assert.equal(log.lastSuccess('skinport', 'cs2'), ok);
  });
});
