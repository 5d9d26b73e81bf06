import { test } from 'node:test';
import assert from 'node:assert/strict';
import { REDACTED, redactedLine, redactHeaders, redactRequest } from './recording.ts';

test('credentials, cookies and signatures never reach a recording', () => {
  const line = redactedLine(
    'GET',
    'https://market.example/v1/prices?game=csgo&api=secret-1&key=secret-2&page=2',
    ['api'],
  );
  assert.equal(
    line,
    'GET https://market.example/v1/prices?game=csgo&api=%5Bredacted%5D&key=%5Bredacted%5D&page=2',
  );
  const headers = redactHeaders(
    {
      authorization: 'Bearer secret-3',
      cookie: 'session=secret-4',
      'set-cookie': 'sid=secret-5',
      'x-api-key': 'secret-6',
      'x-request-sign': 'secret-7',
      'X-Custom-Token': 'secret-8',
      'content-type': 'application/json',
      etag: '"abc"',
    },
    [],
  );
  assert.deepEqual(
    Object.values(headers).filter((value) => value !== REDACTED),
    ['application/json', '"abc"'],
  );
  const request = redactRequest({
    kind: 'listings',
    game: 'cs2',
    method: 'GET',
    path: '/api/v1/listings',
    query: { market_hash_name: 'AK-47 | Redline (Field-Tested)', token: 'secret-9' },
    headers: { 'X-Market-Pass': 'secret-10' },
    secret: ['X-Market-Pass'],
  });
  assert.ok(!JSON.stringify(request).includes('secret-'), JSON.stringify(request));
  assert.equal(request.query!.market_hash_name, 'AK-47 | Redline (Field-Tested)');
});
