import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { AccessStore, Account } from './access-store.ts';
import { accessStoreContract } from './access-store-contract.ts';
import { createPostgresAccessStore } from './postgres-access-store.ts';
import {
  DATABASE_URL,
  dropSchema,
  needsPostgres,
  testSchemaName,
} from '../store/postgres/test-support.ts';

function account(id: string, name: string): Account {
  return {
    id,
    name,
    plan: 'developer',
    status: 'active',
    perMinuteOverride: null,
    monthlyOverride: null,
    createdAt: 0,
  };
}

describe('PostgreSQL access store', needsPostgres, () => {
  const schemas: string[] = [];
  const opened: AccessStore[] = [];
  after(async () => {
    for (const store of opened) await store.close();
    for (const schema of schemas) await dropSchema(schema);
  });

  function openStore(schema = testSchemaName()): AccessStore {
    if (!schemas.includes(schema)) schemas.push(schema);
    const store = createPostgresAccessStore({ connectionString: DATABASE_URL, schema });
    opened.push(store);
    return store;
  }

  accessStoreContract('postgres', () => openStore());

  test('a revoke through one process moves the version another process sees', async () => {
    const schema = testSchemaName();
    const [api, cli] = [openStore(schema), openStore(schema)];
    await api.init();
    await cli.init();
    await cli.createAccount(account('acc_1', 'shared'));
    await cli.createKey({
      id: 'key_1',
      accountId: 'acc_1',
      prefix: 'sk_live_AbC1',
      hash: 'f'.repeat(64),
      status: 'active',
      trial: false,
      createdAt: 0,
      expiresAt: null,
      allowIps: [],
    });
    const before = await api.version();
    assert.equal(await cli.revokeKey('key_1'), true);
    assert.notEqual(await api.version(), before);
    assert.equal((await api.findKeyByHash('f'.repeat(64)))?.status, 'revoked');
  });

  test('concurrent writers from several processes each move the version once', async () => {
    const schema = testSchemaName();
    const writers = [openStore(schema), openStore(schema), openStore(schema)];
    await Promise.all(writers.map((store) => store.init()));
    const start = await writers[0]!.version();
    await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        writers[i % writers.length]!.createAccount(account(`acc_${i}`, `name-${i}`)),
      ),
    );
    assert.equal(await writers[1]!.version(), start + 12);
  });

  test('monthly usage from concurrent writers adds up exactly, without deadlocks', async () => {
    const schema = testSchemaName();
    const writers = [openStore(schema), openStore(schema), openStore(schema)];
    await Promise.all(writers.map((store) => store.init()));
    const accounts = ['acc_a', 'acc_b', 'acc_c', 'acc_d'];
    await Promise.all(
      Array.from({ length: 30 }, (_, i) => {
        const order = i % 2 === 0 ? accounts : [...accounts].reverse();
        return writers[i % writers.length]!.addMonthlyUsage(
          order.map((accountId) => ({ accountId, month: 202611, count: 1 })),
        );
      }),
    );
    for (const accountId of accounts) {
      assert.equal(await writers[0]!.monthlyUsage(accountId, 202611), 30);
    }
    assert.equal(await writers[1]!.version(), 0, 'usage never moves the version');
  });

  test('names list in byte order, like the SQLite store', async () => {
    const store = openStore();
    await store.init();
    for (const [i, name] of ['beta', 'Zed', 'alpha', '_x'].entries()) {
      await store.createAccount(account(`acc_${i}`, name));
    }
    assert.deepEqual(
      (await store.listAccounts()).map((a) => a.name),
      ['Zed', '_x', 'alpha', 'beta'],
    );
  });

  test('using the store before init fails clearly', async () => {
    const store = openStore();
    await assert.rejects(store.listKeys(), /init\(\)/);
  });
});
