import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { alertStoreContract, sampleAlert } from './alert-store-contract.ts';
import { createSqliteAlertStore } from './sqlite-alert-store.ts';

const dir = mkdtempSync(join(tmpdir(), 'alert-store-'));
let fileCount = 0;
const nextFile = () => join(dir, `alerts-${++fileCount}.db`);
after(() => rmSync(dir, { recursive: true, force: true }));

alertStoreContract('sqlite temp file', () => createSqliteAlertStore({ path: nextFile() }));
alertStoreContract('sqlite :memory:', () => createSqliteAlertStore({ path: ':memory:' }));

describe('SqliteAlertStore across processes sharing a file', () => {
  test('a pending delivery written by one instance is claimed by the next (a restart)', async () => {
    const path = nextFile();
    const before = createSqliteAlertStore({ path });
    await before.init();
    await before.createAlert(sampleAlert('alt_1'));
    const memory = { lastFiredAt: 1, referenceAsk: 1, armed: false };
    await before.recordFiring('alt_1', null, memory, {
      id: 'evt_1',
      alertId: 'alt_1',
      body: '{}',
      createdAt: 1,
    });
    await before.close();
    const after = createSqliteAlertStore({ path });
    await after.init();
    const claimed = await after.claimDue({ owner: 'p', now: 1, leaseMs: 10, limit: 5 });
    assert.deepEqual(
      claimed.map((d) => d.id),
      ['evt_1'],
    );
    await after.close();
  });
});
