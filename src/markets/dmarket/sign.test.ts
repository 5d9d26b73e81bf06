/**
 * DMarket signatures: the exact string signed, the secret-key format (RFC 8032 test vector 2 as
 * a DMarket 64-byte secret, seed then public key), and signatures that verify with the public
 * key the way DMarket rebuilds the string from the URL it receives.
 */
import assert from 'node:assert/strict';
import { createPublicKey, sign, verify } from 'node:crypto';
import { describe, test } from 'node:test';
import { toHttpRequest } from '../live/request-url.ts';
import { connector } from './connector.ts';
import { SIGNATURE_PREFIX, signRequest, signingKey, stringToSign } from './sign.ts';

const SEED = '4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb';
const PUBLIC = '3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c';
const RFC_SIGNATURE_OF_0X72 =
  '92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da' +
  '085ac1e43e15996e458f3613d0f11d8c387b2eaeb4302aeeb00d291612bb0c00';
const credentials = {
  PRICING_DMARKET_PUBLIC_KEY: PUBLIC.toUpperCase(),
  PRICING_DMARKET_SECRET_KEY: SEED + PUBLIC,
};
const NOW = Date.parse('2026-11-24T12:00:00.750Z');
const SIGN_DATE = '1795521600';
const publicKey = createPublicKey({
  key: Buffer.concat([Buffer.from('302a300506032b6570032100', 'hex'), Buffer.from(PUBLIC, 'hex')]),
  format: 'der',
  type: 'spki',
});

function verifies(message: string, header: string | undefined): boolean {
  assert.ok(header !== undefined && header.startsWith(SIGNATURE_PREFIX), `header ${header}`);
  const signature = Buffer.from(header.slice(SIGNATURE_PREFIX.length), 'hex');
  return verify(null, Buffer.from(message, 'utf8'), publicKey, signature);
}

/** What DMarket verifies: METHOD + decoded route path + raw query + body + X-Sign-Date. */
function rebuiltByApi(method: string, url: string, body: string, date: string): string {
  const parsed = new URL(url);
  return method + decodeURIComponent(parsed.pathname) + parsed.search + body + date;
}

describe('dmarket signing', () => {
  test('the signed string: method, decoded path, query as sent, body, unix seconds', () => {
    const body =
      '{"filter":{"game":"a8db","titles":["AK-47 | Redline (Field-Tested)"]},"limit":"1"}';
    assert.equal(
      stringToSign('POST', '/marketplace-api/v1/aggregated-prices', body, SIGN_DATE),
      `POST/marketplace-api/v1/aggregated-prices${body}1795521600`,
    );
    assert.equal(
      stringToSign(
        'get',
        '/trade-aggregator/v1/last-sales?gameId=a8db&title=AK-47+%7C+Redline&limit=20',
        '',
        '1605619994',
      ),
      'GET/trade-aggregator/v1/last-sales?gameId=a8db&title=AK-47+%7C+Redline&limit=201605619994',
    );
    assert.equal(
      stringToSign(
        'GET',
        '/marketplace-api/v1/targets-by-title/a8db/AK-47%20%7C%20Redline',
        '',
        '1',
      ),
      'GET/marketplace-api/v1/targets-by-title/a8db/AK-47 | Redline1',
    );
  });

  test('the secret is the 64-byte NaCl key, seed first (RFC 8032 test 2)', () => {
    const key = signingKey(SEED + PUBLIC);
    assert.ok(key);
    assert.equal(sign(null, Buffer.from([0x72]), key).toString('hex'), RFC_SIGNATURE_OF_0X72);
    assert.ok(signingKey(SEED), 'a bare 32-byte seed is accepted');
  });

  test('headers: lowercase public key, unix seconds, a signature that verifies', () => {
    const body = '{"filter":{"game":"rust"},"limit":"100"}';
    const headers = signRequest({
      credentials,
      now: NOW,
      method: 'POST',
      pathWithQuery: '/marketplace-api/v1/aggregated-prices',
      body,
    });
    assert.equal(headers['X-Api-Key'], PUBLIC);
    assert.equal(headers['X-Sign-Date'], SIGN_DATE);
    assert.ok(
      verifies(
        `POST/marketplace-api/v1/aggregated-prices${body}${SIGN_DATE}`,
        headers['X-Request-Sign'],
      ),
    );
    // The same signature from `openssl pkeyutl -sign -rawin` over the same string and seed.
    assert.equal(
      headers['X-Request-Sign'],
      SIGNATURE_PREFIX +
        '27a81407ec1b877eb8d78d102d546a005005a3f0da50e27ef540a4eb1f53bcc9' +
        'cfb619610aa921397848e9254902d5ae789ba4422221defa604812c57a119a0f',
    );
  });

  test('planned requests, as sent on the wire, verify the way DMarket rebuilds them', () => {
    const requests = connector.requests({
      game: 'cs2',
      now: NOW,
      credentials,
      priorities: [
        '★ StatTrak™ Karambit | Doppler (Factory New)',
        'AK-47 | Redline (Field-Tested)',
      ],
      memory: new Map(),
    });
    assert.deepEqual(
      [...new Set(requests.map((request) => request.kind))],
      ['aggregated_prices', 'last_sales', 'offers'],
    );
    for (const request of requests) {
      const wire = toHttpRequest(
        'dmarket',
        'https://api.dmarket.com',
        request,
        connector,
        credentials,
      );
      const headers = { ...wire.headers, ...wire.sign?.(NOW) };
      const message = rebuiltByApi(wire.method, wire.url, wire.body ?? '', headers['X-Sign-Date']!);
      assert.ok(verifies(message, headers['X-Request-Sign']), `${wire.method} ${wire.url}`);
    }
  });

  test('a secret that does not decode or does not match its public half signs nothing', () => {
    for (const secret of ['test-credential', SEED.slice(2), SEED + '00'.repeat(32)]) {
      const headers = signRequest({
        credentials: { ...credentials, PRICING_DMARKET_SECRET_KEY: secret },
        now: NOW,
        method: 'GET',
        pathWithQuery: '/trade-aggregator/v1/last-sales?gameId=a8db',
        body: '',
      });
      assert.equal(headers['X-Request-Sign'], undefined, secret);
      assert.equal(headers['X-Sign-Date'], SIGN_DATE);
    }
  });
});
