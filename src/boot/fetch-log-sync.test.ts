import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { manualClock, MINUTE } from '../domain/clock.ts';
import type { FetchRecord } from '../domain/quote.ts';
import { FetchLog } from '../ingest/fetch-log.ts';
import { fetchRecord, T0 } from '../store/contract-fixtures.ts';
import { createFetchLogSync } from './fetch-log-sync.ts';

function storeOf(rows: FetchRecord[]) {
  const calls: number[] = [];
  return {
    calls,
    rows,
    fail: false,
    async loadFetches(sinceMs: number) {
      calls.push(sinceMs);
      if (this.fail) throw new Error('connect ECONNREFUSED');
      return this.rows.filter((row) => row.startedAt >= sinceMs);
    },
  };
}

const quiet = { info() {}, warn() {} };

describe('createFetchLogSync', () => {
  test('loads the window at first, then only new records, each once', async () => {
    const clock = manualClock(T0 + 10 * MINUTE);
    const fetchLog = new FetchLog(clock);
    const store = storeOf([
      fetchRecord({ startedAt: T0 }),
      fetchRecord({ startedAt: T0 + MINUTE }),
    ]);
    const sync = createFetchLogSync({ store, fetchLog, clock, logger: quiet });
    assert.equal(await sync.syncOnce(), 2);
    assert.equal(store.calls[0], clock.now() - fetchLog.windowMs);
    assert.equal(await sync.syncOnce(), 0, 'the overlap re-read adds nothing twice');
    store.rows.push(
      fetchRecord({ startedAt: T0 + 30_000, market: 'csfloat' }),
      fetchRecord({ startedAt: T0 + 2 * MINUTE }),
    );
    assert.equal(await sync.syncOnce(), 2, 'a late-flushed older record is picked up too');
    assert.equal(fetchLog.records(0).length, 4);
  });

  test('a failing store throws from syncOnce and keeps what the log holds', async () => {
    const clock = manualClock(T0 + MINUTE);
    const fetchLog = new FetchLog(clock);
    const store = storeOf([fetchRecord({ startedAt: T0 })]);
    const sync = createFetchLogSync({ store, fetchLog, clock, logger: quiet });
    await sync.syncOnce();
    store.fail = true;
    await assert.rejects(sync.syncOnce(), /ECONNREFUSED/);
    assert.equal(fetchLog.records(0).length, 1);
  });
});
