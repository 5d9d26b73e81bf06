import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FETCH_FAILURES, readFetchFailure } from './fetch-failure.ts';

test('stored kinds read as today’s vocabulary: renamed ones mapped, unknown ones null', () => {
  for (const kind of FETCH_FAILURES) assert.equal(readFetchFailure(kind), kind);
  assert.equal(readFetchFailure('server_error'), 'http_5xx');
  assert.equal(readFetchFailure('client_error'), 'http_4xx');
  assert.equal(readFetchFailure('bad_body'), 'parse');
  assert.equal(readFetchFailure('exploded'), null);
  assert.equal(readFetchFailure(null), null);
});
