import { describe, test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { accessStoreContract } from './access-store-contract.ts';
import { createSqliteAccessStore } from './sqlite-access-store.ts';

const dir = mkdtempSync(join(tmpdir(), 'access-store-'));
let fileCount = 0;
const nextFile = () => join(dir, `access-${++fileCount}.db`);
after(() => rmSync(dir, { recursive: true, force: true }));

accessStoreContract('sqlite temp file', () => createSqliteAccessStore({ path: nextFile() }));
accessStoreContract('sqlite :memory:', () => createSqliteAccessStore({ path: ':memory:' }));

describe('SqliteAccessStore across instances', () => {
  test('a write through one instance moves the version seen by another', async () => {
    const path = nextFile();
    const writer = createSqliteAccessStore({ path });
    const reader = createSqliteAccessStore({ path });
    await writer.init();
    await reader.init();
    const before = await reader.version();
    await writer.createAccount({
      id: 'acc_1',
      name: 'shared',
      plan: 'developer',
      status: 'active',
      perMinuteOverride: null,
      monthlyOverride: null,
      createdAt: 0,
    });
    assert.notEqual(await reader.version(), before);
    assert.equal((await reader.getAccountByName('shared'))?.id, 'acc_1');
    await writer.close();
    await reader.close();
  });

  test('reopening a file keeps data and does not re-run migrations', async () => {
    const path = nextFile();
    const first = createSqliteAccessStore({ path });
    await first.init();
    await first.createAccount({
      id: 'acc_1',
      name: 'kept',
      plan: 'pro',
      status: 'active',
      perMinuteOverride: 7,
      monthlyOverride: null,
      createdAt: 0,
    });
    const version = await first.version();
    await first.close();
    const second = createSqliteAccessStore({ path });
    await second.init();
    assert.equal((await second.getAccountByName('kept'))?.perMinuteOverride, 7);
    assert.equal(await second.version(), version);
    await second.close();
  });

  test('an access.db from before monthly usage and stream limits gains them on init, keeping its data', async () => {
    const path = nextFile();
    const first = createSqliteAccessStore({ path });
    await first.init();
    await first.createAccount({
      id: 'acc_1',
      name: 'old',
      plan: 'pro',
      status: 'active',
      perMinuteOverride: null,
      monthlyOverride: null,
      createdAt: 0,
    });
    await first.close();
    const db = new Database(path);
    db.exec(`DROP TABLE monthly_usage; ALTER TABLE accounts DROP COLUMN streams_override;
      DELETE FROM access_migrations WHERE version >= 2`);
    db.close();
    const upgraded = createSqliteAccessStore({ path });
    await upgraded.init();
    assert.equal((await upgraded.getAccountByName('old'))?.id, 'acc_1');
    await upgraded.addMonthlyUsage([{ accountId: 'acc_1', month: 202611, count: 3 }]);
    assert.equal(await upgraded.monthlyUsage('acc_1', 202611), 3);
    await upgraded.updateAccount('acc_1', { streamsOverride: 7 });
    assert.equal((await upgraded.getAccount('acc_1'))?.streamsOverride, 7);
    await upgraded.updateAccount('acc_1', { streamsOverride: null });
    assert.equal((await upgraded.getAccount('acc_1'))?.streamsOverride, undefined);
    await upgraded.close();
  });

  test('monthly usage written through two instances adds up', async () => {
    const path = nextFile();
    const [a, b] = [createSqliteAccessStore({ path }), createSqliteAccessStore({ path })];
    await a.init();
    await b.init();
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        (i % 2 === 0 ? a : b).addMonthlyUsage([
          { accountId: 'acc_1', month: 202611, count: 1 },
          { accountId: 'acc_2', month: 202611, count: 2 },
        ]),
      ),
    );
    assert.equal(await b.monthlyUsage('acc_1', 202611), 20);
    assert.equal(await a.monthlyUsage('acc_2', 202611), 40);
    await a.close();
    await b.close();
  });

  test('creates the parent folder of the database file', async () => {
    const store = createSqliteAccessStore({ path: join(dir, 'nested', 'data', 'access.db') });
    await store.init();
    assert.equal(await store.version(), 0);
    await store.close();
  });

  test('using the store before init fails clearly', async () => {
    const store = createSqliteAccessStore({ path: ':memory:' });
    await assert.rejects(store.listKeys(), /init\(\)/);
    await store.close();
  });
});
