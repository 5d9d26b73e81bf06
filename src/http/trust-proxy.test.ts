import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createAccessService } from '../access/access-service.ts';
import { accessFixture } from '../access/access-test-fixture.ts';
import { resolveServeConfig } from '../config.ts';
import { buildHarness } from './test-support.ts';
import { parseTrustProxy, type TrustProxy } from '../access/trust-proxy.ts';

const PROXY = '10.0.0.5';
const OUTSIDER = '203.0.113.9';

describe('parseTrustProxy', () => {
  test('true and false keep their meaning; a list is normalised', () => {
    assert.equal(parseTrustProxy('true'), true);
    assert.equal(parseTrustProxy('FALSE'), false);
    assert.equal(parseTrustProxy(''), false);
    assert.deepEqual(parseTrustProxy(' 127.0.0.1/32, 10.0.0.0/8,::1 '), [
      '127.0.0.1/32',
      '10.0.0.0/8',
      '::1/128',
    ]);
  });

  test('anything else stops the server at boot, naming each bad entry', () => {
    for (const [text, named] of [
      ['yes', '"yes"'],
      ['10.0.0.0/8,', 'an empty entry'],
      ['10.0.0.0/33,loopback', '"10.0.0.0/33", "loopback"'],
    ]) {
      assert.throws(
        () => resolveServeConfig({}, { TRUST_PROXY: text }),
        (error: Error) => error.message.includes(`not an address or range: ${named}`),
        text,
      );
    }
    assert.deepEqual(
      resolveServeConfig({}, { TRUST_PROXY: '10.0.0.0/8' }).trustProxy,
      '10.0.0.0/8',
    );
  });
});

/** The app with the real access service: one key allowed from 10.0.0.0/8 only. */
async function app(trustProxy: TrustProxy) {
  const { admin, store } = await accessFixture();
  await admin.createAccount('acme', 'enterprise');
  const { key } = await admin.createKey({ accountName: 'acme', allowIps: ['10.0.0.0/8'] });
  const authenticator = createAccessService({ store });
  const harness = await buildHarness({ authenticator, trustProxy, healthPerMinute: 2 });
  const read = (remoteAddress: string, forwardedFor?: string) =>
    harness.app.inject({
      url: '/v1/status/freshness',
      remoteAddress,
      headers: {
        authorization: `ApiKey ${key}`,
        ...(forwardedFor === undefined ? {} : { 'x-forwarded-for': forwardedFor }),
      },
    });
  const health = (remoteAddress: string, forwardedFor: string) =>
    harness.app.inject({
      url: '/v1/markets/health',
      remoteAddress,
      headers: { 'x-forwarded-for': forwardedFor },
    });
  return { read, health };
}

describe('TRUST_PROXY: who may name the client', () => {
  test('a direct, untrusted client cannot spoof its way past an allow-list', async () => {
    const { read } = await app([`${PROXY}/32`]);
    const spoofed = await read(OUTSIDER, '10.1.2.3');
    assert.equal(spoofed.statusCode, 403);
    assert.equal(spoofed.json().code, 'IP_NOT_ALLOWED');
    const chained = await read(OUTSIDER, '10.1.2.3, 10.0.0.5');
    assert.equal(chained.statusCode, 403, 'a listed address inside the header proves nothing');
  });

  test('a trusted proxy names the client; the first untrusted hop from the right wins', async () => {
    const { read } = await app([`${PROXY}/32`]);
    assert.equal((await read(PROXY, '10.1.2.3')).statusCode, 200);
    assert.equal((await read(PROXY, `10.1.2.3, ${OUTSIDER}`)).statusCode, 403);
    assert.equal((await read(PROXY)).statusCode, 200, 'no header: the proxy itself is the client');
    assert.equal((await read(`::ffff:${PROXY}`, '10.1.2.3')).statusCode, 200);
  });

  test('the per-IP health limit counts a spoofing client as itself', async () => {
    const { health } = await app([`${PROXY}/32`]);
    const statuses = [];
    for (let i = 0; i < 3; i += 1)
      statuses.push((await health(OUTSIDER, `192.0.2.${i}`)).statusCode);
    assert.deepEqual(statuses, [200, 200, 429]);
    const proxied = [];
    for (let i = 0; i < 3; i += 1) proxied.push((await health(PROXY, `192.0.2.${i}`)).statusCode);
    assert.deepEqual(proxied, [200, 200, 200], 'through the proxy, three different clients');
  });

  test('false ignores X-Forwarded-For; true believes every hop', async () => {
    const off = await app(false);
    assert.equal((await off.read(OUTSIDER, '10.1.2.3')).statusCode, 403);
    assert.equal((await off.read('10.9.9.9', OUTSIDER)).statusCode, 200);
    const all = await app(true);
    assert.equal((await all.read(OUTSIDER, '10.1.2.3')).statusCode, 200);
  });
});
