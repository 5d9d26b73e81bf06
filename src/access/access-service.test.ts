import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createAccessService, parseAuthorization } from './access-service.ts';
import type { AuthResult } from './access-service.ts';
import { accessFixture, T0 } from './access-test-fixture.ts';
import { generateApiKey } from './keys.ts';
import { DAY } from '../domain/clock.ts';

const IP = '198.51.100.7';
const INVALID = {
  ok: false,
  status: 401,
  code: 'UNAUTHORIZED',
  message: 'API key invalid or inactive',
};
const INACTIVE = {
  ok: false,
  status: 403,
  code: 'SUBSCRIPTION_INACTIVE',
  message: 'Subscription is not active',
};

function assertRefused(result: AuthResult, expected: object) {
  assert.deepEqual(result, expected);
}

async function setup(plan = 'pro') {
  const fixture = await accessFixture();
  await fixture.admin.createAccount('acme', plan);
  const { key, id } = await fixture.admin.createKey({ accountName: 'acme' });
  const service = createAccessService({ store: fixture.store });
  return { ...fixture, service, key, keyId: id };
}

describe('parseAuthorization', () => {
  test('accepts ApiKey and Bearer in any case, with extra spaces', () => {
    for (const header of [
      'ApiKey k1',
      'Bearer k1',
      'apikey k1',
      'APIKEY k1',
      'bearer k1',
      'BeArEr k1',
      '  ApiKey    k1  ',
      'ApiKey\tk1',
    ]) {
      assert.equal(parseAuthorization(header), 'k1', JSON.stringify(header));
    }
  });

  test('refuses other schemes and malformed values', () => {
    for (const header of [
      undefined,
      '',
      'k1',
      'Basic k1',
      'Token k1',
      'ApiKeys k1',
      'ApiKey',
      'ApiKey ',
      'ApiKey k1 k2',
      'Bearer: k1',
    ]) {
      assert.equal(parseAuthorization(header), null, JSON.stringify(header));
    }
  });
});

describe('authenticate: 401', () => {
  test('missing header', async () => {
    const { service } = await setup();
    assertRefused(await service.authenticate(undefined, IP, T0), INVALID);
  });

  test('unsupported scheme with a valid key', async () => {
    const { service, key } = await setup();
    assertRefused(await service.authenticate(`Basic ${key}`, IP, T0), INVALID);
    assertRefused(await service.authenticate(key, IP, T0), INVALID);
  });

  test('unknown and malformed keys', async () => {
    const { service, key } = await setup();
    assertRefused(await service.authenticate(`ApiKey ${generateApiKey()}`, IP, T0), INVALID);
    assertRefused(await service.authenticate(`ApiKey ${key}x`, IP, T0), INVALID);
    assertRefused(await service.authenticate(`ApiKey ${key.toLowerCase()}`, IP, T0), INVALID);
  });

  test('revoked key, even when the account is also inactive', async () => {
    const { service, admin, key, keyId } = await setup();
    await admin.revokeKey(keyId);
    await admin.setAccount('acme', { status: 'inactive' });
    assertRefused(await service.authenticate(`ApiKey ${key}`, IP, T0), INVALID);
  });

  test('expiry boundary to the millisecond', async () => {
    const { service, admin } = await setup();
    const { key } = await admin.createKey({
      accountName: 'acme',
      expiresAt: '2026-11-05T00:00:00.000Z',
    });
    const expiresAt = Date.parse('2026-11-05T00:00:00.000Z');
    assert.equal((await service.authenticate(`ApiKey ${key}`, IP, expiresAt - 1)).ok, true);
    assertRefused(await service.authenticate(`ApiKey ${key}`, IP, expiresAt), INVALID);
  });

  test('key whose account is missing', async () => {
    const { store, key } = await setup();
    const orphaned = createAccessService({ store: { ...store, getAccount: async () => null } });
    assertRefused(await orphaned.authenticate(`ApiKey ${key}`, IP, T0), INVALID);
  });
});

describe('authenticate: 403', () => {
  for (const status of ['inactive', 'expired']) {
    test(`account status ${status}`, async () => {
      const { service, admin, key } = await setup();
      await admin.setAccount('acme', { status });
      assertRefused(await service.authenticate(`Bearer ${key}`, IP, T0), INACTIVE);
    });
  }

  test('Enterprise allow-list: IPv4, IPv4-mapped IPv6 and IPv6', async () => {
    const { service, admin } = await setup('enterprise');
    const { key } = await admin.createKey({
      accountName: 'acme',
      allowIps: ['127.0.0.0/8', '2001:db8::/48'],
    });
    const header = `ApiKey ${key}`;
    for (const ip of ['127.0.0.1', '::ffff:127.0.0.1', '2001:db8:0:1::9']) {
      assert.equal((await service.authenticate(header, ip, T0)).ok, true, ip);
    }
    for (const ip of ['10.0.0.1', '::ffff:10.0.0.1', '2001:db8:1::9', '::1', 'unknown']) {
      assertRefused(await service.authenticate(header, ip, T0), {
        ok: false,
        status: 403,
        code: 'IP_NOT_ALLOWED',
        message: "Client IP is not in this key's allow-list",
      });
    }
  });

  test('a plan change never widens access: the allow-list holds on every plan', async () => {
    const { service, admin } = await setup('enterprise');
    const { key } = await admin.createKey({ accountName: 'acme', allowIps: ['10.0.0.0/8'] });
    const header = `ApiKey ${key}`;
    for (const plan of ['pro', 'developer', 'enterprise']) {
      await admin.setAccount('acme', { plan });
      await service.refreshNow();
      assert.equal((await service.authenticate(header, '10.1.2.3', T0)).ok, true, plan);
      const outside = await service.authenticate(header, '203.0.113.9', T0);
      assert.equal(outside.ok === false && outside.code, 'IP_NOT_ALLOWED', plan);
    }
  });
});

describe('authenticate: success', () => {
  test('returns account, key, plan and plan limits for both schemes', async () => {
    const { service, key, keyId } = await setup('pro');
    for (const header of [`ApiKey ${key}`, `bearer   ${key}`]) {
      const result = await service.authenticate(header, IP, T0);
      assert.ok(result.ok);
      assert.equal(result.account.name, 'acme');
      assert.equal(result.key.id, keyId);
      assert.equal(result.plan, 'pro');
      assert.deepEqual(result.limits, { perMinute: 600, monthly: 200_000 });
    }
  });

  test('a trial key acts at Developer level on any plan until 2 days after creation', async () => {
    const { service, admin } = await setup('enterprise');
    const { key } = await admin.createKey({ accountName: 'acme', trial: true });
    const result = await service.authenticate(`ApiKey ${key}`, IP, T0 + 2 * DAY - 1);
    assert.ok(result.ok);
    assert.equal(result.account.plan, 'enterprise');
    assert.equal(result.plan, 'developer');
    assert.deepEqual(result.limits, { perMinute: 60, monthly: 10_000 });
    assertRefused(await service.authenticate(`ApiKey ${key}`, IP, T0 + 2 * DAY), INVALID);
  });

  test('per-account overrides replace the plan quota field by field', async () => {
    const { service, admin, key } = await setup('developer');
    await admin.setAccount('acme', { perMinute: 250 });
    await service.refreshNow();
    let result = await service.authenticate(`ApiKey ${key}`, IP, T0);
    assert.ok(result.ok);
    assert.deepEqual(result.limits, { perMinute: 250, monthly: 10_000 });
    await admin.setAccount('acme', { plan: 'enterprise', monthly: 1_000_000, perMinute: 'none' });
    await service.refreshNow();
    result = await service.authenticate(`ApiKey ${key}`, IP, T0);
    assert.ok(result.ok);
    assert.deepEqual(result.limits, { perMinute: 3_000, monthly: 1_000_000 });
  });
});
