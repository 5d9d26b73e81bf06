import { describe, test, after, mock } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { createAccessService } from './access-service.ts';
import type { AccessStore, ApiKeyRecord } from './access-store.ts';
import { createSqliteAccessStore } from './sqlite-access-store.ts';
import { accessFixture, T0 } from './access-test-fixture.ts';
import { generateApiKey } from './keys.ts';

const IP = '198.51.100.7';
const dir = mkdtempSync(join(tmpdir(), 'access-cache-'));
after(() => rmSync(dir, { recursive: true, force: true }));

function countingStore(store: AccessStore) {
  const calls = { findKeyByHash: 0, getAccount: 0, version: 0 };
  const counted: AccessStore = {
    ...store,
    findKeyByHash: (hash) => (calls.findKeyByHash++, store.findKeyByHash(hash)),
    getAccount: (id) => (calls.getAccount++, store.getAccount(id)),
    version: () => (calls.version++, store.version()),
  };
  return { counted, calls };
}

/** The server's store and the CLI's store: two objects on one database file. */
async function twoProcesses(name: string) {
  const path = join(dir, `${name}.db`);
  const cli = await accessFixture(path);
  const serverStore = createSqliteAccessStore({ path });
  await serverStore.init();
  await cli.admin.createAccount('acme', 'pro');
  const created = await cli.admin.createKey({ accountName: 'acme' });
  const service = createAccessService({ store: serverStore });
  await service.refreshNow();
  const header = `ApiKey ${created.key}`;
  return { ...cli, serverStore, service, header, keyId: created.id };
}

/** A store whose reads can be made to fail, as PostgreSQL does in an outage. */
function breakableStore(store: AccessStore) {
  const state = { down: false };
  const guard =
    <A extends unknown[], R>(read: (...args: A) => Promise<R>) =>
    (...args: A): Promise<R> =>
      state.down ? Promise.reject(new Error('connection refused')) : read(...args);
  const breakable: AccessStore = {
    ...store,
    findKeyByHash: guard((hash) => store.findKeyByHash(hash)),
    getAccount: guard((id) => store.getAccount(id)),
    listKeys: guard(() => store.listKeys()),
    listAccounts: guard(() => store.listAccounts()),
    version: guard(() => store.version()),
  };
  return { breakable, state };
}

describe('AccessService cache: a change touches only what changed', () => {
  async function twoCachedKeys(name: string) {
    const cli = await accessFixture(join(dir, `${name}.db`));
    const serverStore = createSqliteAccessStore({ path: join(dir, `${name}.db`) });
    await serverStore.init();
    await cli.admin.createAccount('acme', 'pro');
    await cli.admin.createAccount('other', 'pro');
    const kept = await cli.admin.createKey({ accountName: 'acme' });
    const changed = await cli.admin.createKey({ accountName: 'other' });
    const { breakable, state } = breakableStore(serverStore);
    const { counted, calls } = countingStore(breakable);
    const service = createAccessService({ store: counted });
    await service.refreshNow();
    const keptHeader = `ApiKey ${kept.key}`;
    const changedHeader = `ApiKey ${changed.key}`;
    assert.equal((await service.authenticate(keptHeader, IP, T0)).ok, true);
    assert.equal((await service.authenticate(changedHeader, IP, T0)).ok, true);
    return { ...cli, service, state, calls, keptHeader, changedHeader, changedId: changed.id };
  }

  test('after a revoke, the other cached keys keep working through a store outage', async () => {
    const setup = await twoCachedKeys('outage-after-change');
    await setup.admin.revokeKey(setup.changedId);
    await setup.service.refreshNow();
    const lookups = setup.calls.findKeyByHash;
    setup.state.down = true;
    assert.equal((await setup.service.authenticate(setup.keptHeader, IP, T0)).ok, true);
    const revoked = await setup.service.authenticate(setup.changedHeader, IP, T0);
    assert.equal(revoked.ok === false && revoked.status, 401);
    assert.equal(setup.calls.findKeyByHash, lookups, 'both answered from the cache');
    assert.equal(setup.service.cachedKeys(), 2);
  });

  test('an account change applies to its keys and leaves the others cached', async () => {
    const setup = await twoCachedKeys('account-change');
    await setup.admin.setAccount('other', { status: 'inactive' });
    await setup.service.refreshNow();
    setup.state.down = true;
    const refused = await setup.service.authenticate(setup.changedHeader, IP, T0);
    assert.equal(refused.ok === false && refused.code, 'SUBSCRIPTION_INACTIVE');
    assert.equal((await setup.service.authenticate(setup.keptHeader, IP, T0)).ok, true);
  });

  test('a re-read that fails keeps the cache and is retried until it succeeds', async () => {
    const setup = await twoCachedKeys('failed-reread');
    await setup.admin.revokeKey(setup.changedId);
    setup.state.down = true;
    await assert.rejects(setup.service.refreshNow(), /connection refused/);
    assert.equal((await setup.service.authenticate(setup.keptHeader, IP, T0)).ok, true);
    setup.state.down = false;
    await setup.service.refreshNow();
    const revoked = await setup.service.authenticate(setup.changedHeader, IP, T0);
    assert.equal(revoked.ok === false && revoked.status, 401);
  });

  test('a deleted key row leaves the cache; a refresh with nothing cached reads no lists', async () => {
    const { store, admin } = await accessFixture();
    await admin.createAccount('acme', 'pro');
    const { key } = await admin.createKey({ accountName: 'acme' });
    let listReads = 0;
    let gone = false;
    const service = createAccessService({
      store: {
        ...store,
        listKeys: async () => (listReads++, gone ? [] : store.listKeys()),
        listAccounts: async () => (listReads++, store.listAccounts()),
      },
    });
    await service.refreshNow();
    await admin.createAccount('later', 'pro');
    await service.refreshNow();
    assert.equal(listReads, 0);
    await service.authenticate(`ApiKey ${key}`, IP, T0);
    gone = true;
    await admin.createAccount('again', 'pro');
    await service.refreshNow();
    assert.equal(listReads, 2);
    assert.equal(service.cachedKeys(), 0);
  });
});

describe('AccessService cache', () => {
  test('repeated requests with one key hit the store once', async () => {
    const { store, admin } = await accessFixture();
    await admin.createAccount('acme', 'pro');
    const { key } = await admin.createKey({ accountName: 'acme' });
    const { counted, calls } = countingStore(store);
    const service = createAccessService({ store: counted });
    await service.refreshNow();
    for (let i = 0; i < 5; i += 1)
      assert.equal((await service.authenticate(`ApiKey ${key}`, IP, T0)).ok, true);
    assert.deepEqual(calls, { findKeyByHash: 1, getAccount: 1, version: 1 });
    await service.refreshNow();
    await service.authenticate(`ApiKey ${key}`, IP, T0);
    assert.equal(calls.findKeyByHash, 1, 'an unchanged version keeps the cache');
  });

  test('unknown keys are not cached; malformed tokens never reach the store', async () => {
    const { store } = await accessFixture();
    const { counted, calls } = countingStore(store);
    const service = createAccessService({ store: counted });
    const unknown = `ApiKey ${generateApiKey()}`;
    for (let i = 0; i < 3; i += 1)
      assert.equal((await service.authenticate(unknown, IP, T0)).ok, false);
    assert.equal(calls.findKeyByHash, 3);
    assert.equal(service.cachedKeys(), 0);
    await service.authenticate('ApiKey not-a-key', IP, T0);
    await service.authenticate(`ApiKey ${'x'.repeat(10_000)}`, IP, T0);
    assert.equal(calls.findKeyByHash, 3);
  });

  test('a revoke through a second store instance applies on the next refresh', async () => {
    const { admin, service, header, keyId } = await twoProcesses('revoke');
    assert.equal((await service.authenticate(header, IP, T0)).ok, true);
    await admin.revokeKey(keyId);
    assert.equal(
      (await service.authenticate(header, IP, T0)).ok,
      true,
      'served from cache until refresh',
    );
    await service.refreshNow();
    const result = await service.authenticate(header, IP, T0);
    assert.equal(result.ok === false && result.status, 401);
  });

  test('account changes through a second store instance apply on the next refresh', async () => {
    const { admin, service, header } = await twoProcesses('account');
    await service.authenticate(header, IP, T0);
    await admin.setAccount('acme', { status: 'expired' });
    await service.refreshNow();
    const result = await service.authenticate(header, IP, T0);
    assert.equal(result.ok === false && result.code, 'SUBSCRIPTION_INACTIVE');
  });

  test('a key created by another process works at once (misses go to the store)', async () => {
    const { admin, service } = await twoProcesses('create');
    const { key } = await admin.createKey({ accountName: 'acme' });
    assert.equal((await service.authenticate(`ApiKey ${key}`, IP, T0)).ok, true);
  });

  test('startRefresh polls on a timer and stop ends it', async () => {
    const { admin, service, header, keyId } = await twoProcesses('timer');
    mock.timers.enable({ apis: ['setInterval'] });
    try {
      service.startRefresh(250);
      await nextTurn();
      await service.authenticate(header, IP, T0);
      await admin.revokeKey(keyId);
      mock.timers.tick(250);
      await nextTurn();
      assert.equal((await service.authenticate(header, IP, T0)).ok, false);
      service.stop();
      await admin.createAccount('later', 'pro');
      const { key } = await admin.createKey({ accountName: 'later' });
      await service.authenticate(`ApiKey ${key}`, IP, T0);
      assert.equal(service.cachedKeys(), 2);
      await admin.setAccount('later', { status: 'inactive' });
      mock.timers.tick(1000);
      await nextTurn();
      assert.equal(service.cachedKeys(), 2, 'no refresh after stop');
    } finally {
      service.stop();
      mock.timers.reset();
    }
  });

  test('a failing background refresh keeps the cache and reports the error', async () => {
    const { store, admin } = await accessFixture();
    await admin.createAccount('acme', 'pro');
    const { key } = await admin.createKey({ accountName: 'acme' });
    const errors: unknown[] = [];
    const broken: AccessStore = {
      ...store,
      version: async () => Promise.reject(new Error('disk gone')),
    };
    const service = createAccessService({
      store: broken,
      onRefreshError: (error) => errors.push(error),
    });
    mock.timers.enable({ apis: ['setInterval'] });
    try {
      await service.authenticate(`ApiKey ${key}`, IP, T0);
      service.startRefresh();
      mock.timers.tick(250);
      await nextTurn();
      assert.equal(errors.length, 1);
      assert.equal(service.cachedKeys(), 1);
    } finally {
      service.stop();
      mock.timers.reset();
    }
  });

  test('a lookup that straddles a refresh is not cached with stale data', async () => {
    const { store, admin } = await accessFixture();
    await admin.createAccount('acme', 'pro');
    const { key, id } = await admin.createKey({ accountName: 'acme' });
    let release: (() => void) | undefined;
    const slow: AccessStore = {
      ...store,
      findKeyByHash: async (hash) => {
        const found = await store.findKeyByHash(hash);
        await new Promise<void>((resolve) => (release = resolve));
        return found as ApiKeyRecord;
      },
    };
    const service = createAccessService({ store: slow });
    await service.refreshNow();
    const pending = service.authenticate(`ApiKey ${key}`, IP, T0);
    await nextTurn();
    await admin.revokeKey(id);
    await service.refreshNow();
    release?.();
    assert.equal((await pending).ok, true, 'the in-flight answer used what it read');
    assert.equal(service.cachedKeys(), 0, 'but it was not kept');
  });
});
