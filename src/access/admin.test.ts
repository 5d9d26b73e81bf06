import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { AdminError, AdminInputError, TRIAL_DURATION_MS } from './admin.ts';
import { accessFixture, T0 } from './access-test-fixture.ts';
import { hashApiKey } from './keys.ts';
import { DAY } from '../domain/clock.ts';

describe('admin: accounts', () => {
  test('creates an account with validated plan and overrides', async () => {
    const { admin, store } = await accessFixture();
    const account = await admin.createAccount('acme', 'PRO', { perMinute: '900', monthly: null });
    assert.match(account.id, /^acc_/);
    assert.deepEqual(await store.getAccountByName('acme'), {
      ...account,
      plan: 'pro',
      status: 'active',
      perMinuteOverride: 900,
      monthlyOverride: null,
      createdAt: T0,
    });
  });

  test('refuses bad input with human messages', async () => {
    const { admin } = await accessFixture();
    await assert.rejects(admin.createAccount('acme', 'gold'), {
      name: 'AdminError',
      message: /Unknown plan "gold"/,
    });
    await assert.rejects(admin.createAccount('bad name', 'pro'), AdminError);
    await assert.rejects(admin.createAccount('acme', 'pro', { perMinute: 0 }), /positive integer/);
    await assert.rejects(
      admin.createAccount('acme', 'pro', { monthly: '1.5' }),
      /positive integer/,
    );
    await assert.rejects(admin.createAccount('acme', 'pro', { monthly: -3 }), /positive integer/);
    await admin.createAccount('acme', 'pro');
    await assert.rejects(admin.createAccount('acme', 'developer'), /already exists/);
  });

  test('setAccount patches plan, status and overrides; none clears an override', async () => {
    const { admin } = await accessFixture();
    await admin.createAccount('acme', 'developer', { perMinute: 100 });
    const changed = await admin.setAccount('acme', {
      plan: 'enterprise',
      status: 'inactive',
      monthly: 5,
    });
    assert.equal(changed.plan, 'enterprise');
    assert.equal(changed.status, 'inactive');
    assert.equal(changed.perMinuteOverride, 100);
    assert.equal(changed.monthlyOverride, 5);
    const cleared = await admin.setAccount('acme', { perMinute: 'none' });
    assert.equal(cleared.perMinuteOverride, null);
    await assert.rejects(admin.setAccount('acme', { status: 'paused' }), /Unknown status/);
    await assert.rejects(admin.setAccount('acme', {}), /Nothing to change/);
    await assert.rejects(admin.setAccount('ghost', { plan: 'pro' }), /No account named "ghost"/);
  });
});

describe('admin: keys', () => {
  test('creates a key, stores only its hash and returns the plaintext once', async () => {
    const { admin, store } = await accessFixture();
    await admin.createAccount('acme', 'pro');
    const created = await admin.createKey({ accountName: 'acme' });
    assert.match(created.key, /^sk_live_[0-9A-Za-z]{32}$/);
    assert.equal(created.prefix, created.key.slice(0, 12));
    assert.equal(created.expiresAt, null);
    const [record] = await store.listKeys();
    assert.equal(record?.hash, hashApiKey(created.key));
    assert.ok(!JSON.stringify(await store.listKeys()).includes(created.key));
  });

  test('a trial key expires exactly 2 days after creation', async () => {
    const { admin, store } = await accessFixture();
    await admin.createAccount('acme', 'enterprise');
    const created = await admin.createKey({ accountName: 'acme', trial: true });
    const record = (await store.listKeys())[0];
    assert.equal(record?.trial, true);
    assert.equal(record?.expiresAt, T0 + TRIAL_DURATION_MS);
    assert.equal(created.expiresAt, '2026-11-03T00:00:00.000Z');
    await assert.rejects(
      admin.createKey({ accountName: 'acme', trial: true, expiresAt: '2026-12-01' }),
      /trial key always expires/,
    );
  });

  test('validates expiry dates and allow-lists', async () => {
    const { admin } = await accessFixture();
    await admin.createAccount('big', 'enterprise');
    await admin.createAccount('small', 'pro');
    const dated = await admin.createKey({
      accountName: 'big',
      expiresAt: '2026-12-01T12:00:00+02:00',
    });
    assert.equal(dated.expiresAt, '2026-12-01T10:00:00.000Z');
    await assert.rejects(
      admin.createKey({ accountName: 'big', expiresAt: 'tomorrow' }),
      /Invalid expiry/,
    );
    await assert.rejects(
      admin.createKey({ accountName: 'big', expiresAt: '2026-12-01T12:00' }),
      /Invalid expiry/,
    );
    await assert.rejects(
      admin.createKey({ accountName: 'big', expiresAt: '2026-10-31' }),
      /not in the future/,
    );
    await assert.rejects(
      admin.createKey({ accountName: 'big', allowIps: ['10.0.0.0/40'] }),
      /Invalid IP range/,
    );
    await assert.rejects(
      admin.createKey({ accountName: 'small', allowIps: ['10.0.0.0/8'] }),
      /Enterprise feature/,
    );
    await assert.rejects(admin.createKey({ accountName: 'nobody' }), /No account named/);
  });

  test('lists keys with account names and a status computed at now', async () => {
    const { admin, clock } = await accessFixture();
    await admin.createAccount('acme', 'enterprise');
    const plain = await admin.createKey({ accountName: 'acme', allowIps: ['203.0.113.5'] });
    clock.advance(1000);
    const trial = await admin.createKey({ accountName: 'acme', trial: true });
    clock.advance(1000);
    const revoked = await admin.createKey({ accountName: 'acme' });
    await admin.revokeKey(revoked.id);
    clock.set(T0 + 1000 + 2 * DAY);
    const rows = await admin.listKeys();
    assert.deepEqual(
      rows.map((row) => [row.id, row.account, row.status]),
      [
        [plain.id, 'acme', 'active'],
        [trial.id, 'acme', 'expired'],
        [revoked.id, 'acme', 'revoked'],
      ],
    );
    assert.deepEqual(rows[0]?.allowIps, ['203.0.113.5/32']);
    assert.equal(rows[0]?.createdAt, '2026-11-01T00:00:00.000Z');
    assert.equal(rows[1]?.expiresAt, '2026-11-03T00:00:01.000Z');
    await assert.rejects(admin.revokeKey('key_nope'), /No key with id "key_nope"/);
  });

  test('prepareKey stores nothing until commit; a second revoke is reported', async () => {
    const { admin, store } = await accessFixture();
    await admin.createAccount('acme', 'pro');
    const prepared = await admin.prepareKey({ accountName: 'acme' });
    assert.deepEqual(await store.listKeys(), []);
    await prepared.commit();
    assert.equal((await store.findKeyByHash(hashApiKey(prepared.key)))?.id, prepared.id);
    assert.equal(await admin.revokeKey(prepared.id), 'revoked');
    assert.equal(await admin.revokeKey(prepared.id), 'already_revoked');
  });

  test('malformed input is an AdminInputError; a refusal by state is not', async () => {
    const { admin } = await accessFixture();
    await admin.createAccount('small', 'pro');
    for (const attempt of [
      admin.createAccount('x', 'gold'),
      admin.setAccount('small', { status: 'paused' }),
      admin.setAccount('small', {}),
      admin.createKey({ accountName: 'small', allowIps: [''] }),
      admin.createKey({ accountName: 'small', expiresAt: 'tomorrow' }),
    ]) {
      await assert.rejects(attempt, AdminInputError);
    }
    for (const attempt of [
      admin.createKey({ accountName: 'small', allowIps: ['10.0.0.0/8'] }),
      admin.createKey({ accountName: 'ghost' }),
      admin.revokeKey('key_nope'),
    ]) {
      await assert.rejects(attempt, (error) => !(error instanceof AdminInputError));
    }
  });

  test('ensureDemoAccount creates demo on enterprise once', async () => {
    const { admin, store } = await accessFixture();
    const key = await admin.ensureDemoAccount();
    assert.match(key ?? '', /^sk_live_/);
    assert.equal((await store.getAccountByName('demo'))?.plan, 'enterprise');
    assert.equal((await store.listKeys()).length, 1);
    assert.equal(await admin.ensureDemoAccount(), null);
    assert.equal((await store.listKeys()).length, 1);
  });

  test('ensureDemoAccount leaves a store with accounts alone', async () => {
    const { admin, store } = await accessFixture();
    await admin.createAccount('acme', 'pro');
    assert.equal(await admin.ensureDemoAccount(), null);
    assert.equal(await store.getAccountByName('demo'), null);
  });
});
