/**
 * The AccessStore contract: one node:test suite every implementation runs unchanged
 * (SQLite now, PostgreSQL later). `makeStore` returns a fresh, empty, not yet initialised store.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { AccessStore, Account, ApiKeyRecord } from './access-store.ts';
import { monthlyUsageContract } from './monthly-usage-contract.ts';

const T0 = Date.parse('2026-11-01T00:00:00Z');

function account(overrides: Partial<Account> = {}): Account {
  return {
    id: 'acc_contract0001',
    name: 'acme',
    plan: 'pro',
    status: 'active',
    perMinuteOverride: null,
    monthlyOverride: null,
    createdAt: T0,
    ...overrides,
  };
}

function key(overrides: Partial<ApiKeyRecord> = {}): ApiKeyRecord {
  return {
    id: 'key_contract0001',
    accountId: 'acc_contract0001',
    prefix: 'sk_live_AbC1',
    hash: 'a'.repeat(64),
    status: 'active',
    trial: false,
    createdAt: T0 + 1000,
    expiresAt: null,
    allowIps: [],
    ...overrides,
  };
}

export function accessStoreContract(
  name: string,
  makeStore: () => AccessStore | Promise<AccessStore>,
): void {
  const withStore = (fn: (store: AccessStore) => Promise<void>) => async () => {
    const store = await makeStore();
    await store.init();
    try {
      await fn(store);
    } finally {
      await store.close();
    }
  };

  describe(`AccessStore contract: ${name}`, () => {
    monthlyUsageContract(withStore);

    test(
      'init is idempotent',
      withStore(async (store) => {
        await store.init();
        assert.deepEqual(await store.listAccounts(), []);
      }),
    );

    test(
      'creates and reads an account by id and by name',
      withStore(async (store) => {
        await store.createAccount(account());
        assert.deepEqual(await store.getAccount('acc_contract0001'), account());
        assert.deepEqual(await store.getAccountByName('acme'), account());
        assert.equal(await store.getAccount('acc_missing'), null);
        assert.equal(await store.getAccountByName('nobody'), null);
      }),
    );

    test(
      'account names are unique',
      withStore(async (store) => {
        await store.createAccount(account());
        await assert.rejects(store.createAccount(account({ id: 'acc_contract0002' })));
        assert.equal((await store.listAccounts()).length, 1);
      }),
    );

    test(
      'lists accounts ordered by name',
      withStore(async (store) => {
        await store.createAccount(account({ id: 'acc_b', name: 'zeta' }));
        await store.createAccount(account({ id: 'acc_a', name: 'alpha' }));
        assert.deepEqual(
          (await store.listAccounts()).map((a) => a.name),
          ['alpha', 'zeta'],
        );
      }),
    );

    test(
      'updates only the patched fields',
      withStore(async (store) => {
        await store.createAccount(account({ perMinuteOverride: 5 }));
        await store.updateAccount('acc_contract0001', { plan: 'enterprise', status: 'inactive' });
        assert.deepEqual(
          await store.getAccount('acc_contract0001'),
          account({ plan: 'enterprise', status: 'inactive', perMinuteOverride: 5 }),
        );
      }),
    );

    test(
      'updating an unknown account rejects',
      withStore(async (store) => {
        await assert.rejects(store.updateAccount('acc_missing', { plan: 'pro' }));
      }),
    );

    test(
      'overrides round trip: null stays null, numbers stay numbers',
      withStore(async (store) => {
        await store.createAccount(account({ perMinuteOverride: 120, monthlyOverride: null }));
        let stored = await store.getAccount('acc_contract0001');
        assert.equal(stored?.perMinuteOverride, 120);
        assert.equal(stored?.monthlyOverride, null);
        await store.updateAccount('acc_contract0001', {
          perMinuteOverride: null,
          monthlyOverride: 50_000,
        });
        stored = await store.getAccount('acc_contract0001');
        assert.equal(stored?.perMinuteOverride, null);
        assert.equal(stored?.monthlyOverride, 50_000);
      }),
    );

    test(
      'creates, lists and finds keys by hash',
      withStore(async (store) => {
        await store.createAccount(account());
        const trial = key({
          id: 'key_contract0002',
          hash: 'b'.repeat(64),
          trial: true,
          createdAt: T0 + 2000,
          expiresAt: T0 + 2000 + 172_800_000,
          allowIps: ['10.0.0.0/8', '2001:db8::/32'],
        });
        await store.createKey(key());
        await store.createKey(trial);
        assert.deepEqual(await store.listKeys(), [key(), trial]);
        assert.deepEqual(await store.findKeyByHash('b'.repeat(64)), trial);
        assert.equal(await store.findKeyByHash('c'.repeat(64)), null);
      }),
    );

    test(
      'a key needs an existing account and a unique hash',
      withStore(async (store) => {
        await assert.rejects(store.createKey(key()));
        await store.createAccount(account());
        await store.createKey(key());
        await assert.rejects(store.createKey(key({ id: 'key_contract0002' })));
      }),
    );

    test(
      'revokes a key; false for an unknown id',
      withStore(async (store) => {
        await store.createAccount(account());
        await store.createKey(key());
        assert.equal(await store.revokeKey('key_contract0001'), true);
        assert.equal((await store.findKeyByHash('a'.repeat(64)))?.status, 'revoked');
        assert.equal(await store.revokeKey('key_unknown'), false);
      }),
    );

    test(
      'version moves on every write and not on reads',
      withStore(async (store) => {
        const seen = [await store.version()];
        const expectMoved = async () => {
          const next = await store.version();
          assert.ok(!seen.includes(next), `version ${next} repeated`);
          seen.push(next);
        };
        await store.createAccount(account());
        await expectMoved();
        await store.updateAccount('acc_contract0001', { status: 'expired' });
        await expectMoved();
        await store.createKey(key());
        await expectMoved();
        await store.revokeKey('key_contract0001');
        await expectMoved();
        await store.getAccount('acc_contract0001');
        await store.listKeys();
        await store.findKeyByHash('a'.repeat(64));
        assert.equal(await store.version(), seen.at(-1));
      }),
    );

    test(
      'a failed write leaves the version alone',
      withStore(async (store) => {
        await store.createAccount(account());
        const before = await store.version();
        await assert.rejects(store.createAccount(account({ id: 'acc_contract0002' })));
        await store.revokeKey('key_unknown');
        assert.equal(await store.version(), before);
      }),
    );
  });
}
