import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { toApiError, UNAVAILABLE_RETRY_SECONDS } from './errors.ts';
import { auth, buildHarness, KEYS } from './test-support.ts';

function refused(): Error {
  return Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
}

describe('503 when a backing store is unreachable', () => {
  test('toApiError maps connection failures to 503 UNAVAILABLE with Retry-After', () => {
    const mapped = toApiError(new AggregateError([refused()], 'connect failed'));
    assert.equal(mapped?.statusCode, 503);
    assert.equal(mapped?.code, 'UNAVAILABLE');
    assert.deepEqual(mapped?.headers, { 'Retry-After': UNAVAILABLE_RETRY_SECONDS });
    assert.equal(toApiError(new Error('duplicate key value violates unique constraint')), null);
  });

  test('a request that needs the store while it is down answers 503, not 500', async () => {
    const { app } = await buildHarness({
      authenticator: {
        authenticate: async () => {
          throw refused();
        },
      },
    });
    const response = await app.inject({ url: '/v1/items', headers: auth(KEYS.pro) });
    assert.equal(response.statusCode, 503);
    assert.equal(response.headers['retry-after'], String(UNAVAILABLE_RETRY_SECONDS));
    assert.deepEqual(response.json(), {
      statusCode: 503,
      message: 'A backing store is temporarily unreachable; retry later',
      error: 'Service Unavailable',
      code: 'UNAVAILABLE',
    });
  });
});
