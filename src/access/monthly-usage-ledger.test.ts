import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { AccessStore } from './access-store.ts';
import {
  USAGE_WRITE_FAILED,
  USAGE_WRITE_RECOVERED,
  createMonthlyUsageLedger,
} from './monthly-usage-ledger.ts';
import type { MonthlyUsage, MonthlyUsageStore } from './monthly-usage.ts';
import { createSqliteAccessStore } from './sqlite-access-store.ts';
import { capturingLogger } from '../ingest/test-fixtures.ts';

const MONTH = 202611;

async function sqliteStore(): Promise<AccessStore> {
  const store = createSqliteAccessStore({ path: ':memory:' });
  await store.init();
  return store;
}

/** A store whose writes can be made to fail or to wait for a release. */
function controllableStore(inner: MonthlyUsageStore) {
  const control = { failing: false, hold: null as Promise<void> | null, writes: 0 };
  const store: MonthlyUsageStore = {
    async addMonthlyUsage(deltas) {
      control.writes += 1;
      if (control.hold) await control.hold;
      if (control.failing) throw new Error('database gone');
      return inner.addMonthlyUsage(deltas);
    },
    monthlyUsage: (accountId, month) => inner.monthlyUsage(accountId, month),
  };
  return { store, control };
}

function ledgerOn(store: MonthlyUsageStore, logger = capturingLogger()) {
  return createMonthlyUsageLedger({ store, flushEveryMs: 60_000, logger });
}

describe('monthly usage ledger', () => {
  test('records in memory and writes the counts on flush', async () => {
    const store = await sqliteStore();
    const ledger = ledgerOn(store);
    for (let i = 0; i < 3; i += 1) ledger.record('acc_a', MONTH);
    ledger.record('acc_b', MONTH);
    assert.equal(await store.monthlyUsage('acc_a', MONTH), 0, 'no write per request');
    assert.equal(await ledger.flush(), true);
    assert.equal(await store.monthlyUsage('acc_a', MONTH), 3);
    assert.equal(await store.monthlyUsage('acc_b', MONTH), 1);
    await ledger.flush();
    assert.equal(await store.monthlyUsage('acc_a', MONTH), 3, 'a count is written once');
    await store.close();
  });

  test('usedSoFar is the stored total plus the unwritten counts', async () => {
    const store = await sqliteStore();
    await store.addMonthlyUsage([{ accountId: 'acc_a', month: MONTH, count: 40 }]);
    const ledger = ledgerOn(store);
    ledger.record('acc_a', MONTH);
    ledger.record('acc_a', MONTH);
    assert.equal(await ledger.usedSoFar('acc_a', MONTH), 42);
    await ledger.flush();
    assert.equal(await ledger.usedSoFar('acc_a', MONTH), 42);
    assert.equal(await ledger.usedSoFar('acc_a', MONTH + 1), 0);
    await store.close();
  });

  test('a read during a write counts the written counts exactly once', async () => {
    const sqlite = await sqliteStore();
    const { store, control } = controllableStore(sqlite);
    const ledger = ledgerOn(store);
    let release = () => {};
    control.hold = new Promise<void>((resolve) => (release = resolve));
    for (let i = 0; i < 5; i += 1) ledger.record('acc_a', MONTH);
    const writing = ledger.flush();
    const reading = ledger.usedSoFar('acc_a', MONTH);
    ledger.record('acc_a', MONTH);
    release();
    assert.equal(await writing, true);
    assert.equal(await reading, 6);
    await sqlite.close();
  });

  test('a failed write keeps the counts, logs once, and logs the recovery', async () => {
    const sqlite = await sqliteStore();
    const { store, control } = controllableStore(sqlite);
    const logger = capturingLogger();
    const ledger = ledgerOn(store, logger);
    control.failing = true;
    ledger.record('acc_a', MONTH);
    assert.equal(await ledger.flush(), false);
    ledger.record('acc_a', MONTH);
    assert.equal(await ledger.flush(), false);
    assert.equal(await ledger.usedSoFar('acc_a', MONTH), 2, 'still pending');
    control.failing = false;
    assert.equal(await ledger.flush(), true);
    assert.equal(await sqlite.monthlyUsage('acc_a', MONTH), 2);
    assert.deepEqual(
      logger.lines.map((line) => `${line.level}: ${line.msg}`),
      [`error: ${USAGE_WRITE_FAILED}`, `info: ${USAGE_WRITE_RECOVERED}`],
    );
    await sqlite.close();
  });

  test('tells the listener the stored totals; a failing listener is ignored', async () => {
    const store = await sqliteStore();
    await store.addMonthlyUsage([{ accountId: 'acc_a', month: MONTH, count: 10 }]);
    const ledger = ledgerOn(store);
    const told: MonthlyUsage[][] = [];
    ledger.onWritten(async (totals) => {
      told.push(totals);
      throw new Error('redis down');
    });
    ledger.record('acc_a', MONTH);
    assert.equal(await ledger.flush(), true);
    await ledger.flush();
    assert.deepEqual(told, [[{ accountId: 'acc_a', month: MONTH, used: 11 }]]);
    await store.close();
  });

  test('close writes what is pending; the timer writes on its own', async () => {
    const store = await sqliteStore();
    const ledger = createMonthlyUsageLedger({
      store,
      flushEveryMs: 20,
      logger: capturingLogger(),
    });
    const timerWrote = new Promise<MonthlyUsage[]>((resolve) =>
      ledger.onWritten(async (totals) => resolve(totals)),
    );
    ledger.start();
    ledger.record('acc_a', MONTH);
    // The ledger's timer is unref'd (it never holds a process open); this one keeps the test's
    // event loop alive until the timer has written, and is only a hang guard.
    const keepAlive = setTimeout(() => undefined, 60_000);
    const written = await timerWrote.finally(() => clearTimeout(keepAlive));
    assert.deepEqual(written, [{ accountId: 'acc_a', month: MONTH, used: 1 }]);
    assert.equal(await store.monthlyUsage('acc_a', MONTH), 1);
    ledger.record('acc_a', MONTH);
    await ledger.close();
    assert.equal(await store.monthlyUsage('acc_a', MONTH), 2);
    await store.close();
  });
});
