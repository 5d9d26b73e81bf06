/**
 * Every way PostgreSQL can be unavailable answers a history read with 503 UNAVAILABLE and
 * Retry-After, never 500: a refused database (ALLOW_CONNECTIONS false, its backends
 * terminated), too many connections, a read-only standby refusing a write, an administrator
 * terminating the connection, and a network cut. Runs against a database of its own, created
 * and dropped here (the shared test database is never touched).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { createPool } from '../../store/postgres/driver.ts';
import {
  createPostgresPriceStore,
  type PostgresPriceStore,
} from '../../store/postgres/postgres-price-store.ts';
import { adminQuery, DATABASE_URL, needsPostgres } from '../../store/postgres/test-support.ts';
import { toApiError, UNAVAILABLE_RETRY_SECONDS } from '../errors.ts';
import { buildHarness } from '../test-support.ts';
import { auth, KEYS } from '../test-support.ts';
import { historyPath } from './history-test-support.ts';

const run = randomBytes(4).toString('hex');
const DATABASE = `outage_${run}`;
const ROLE = `outage_${run}`;

function urlFor(user: string, database = DATABASE, port?: number): string {
  const url = new URL(DATABASE_URL);
  url.username = user;
  url.pathname = `/${database}`;
  if (port !== undefined) url.port = String(port);
  return url.toString();
}

const terminateBackends = () =>
  adminQuery('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1', [
    DATABASE,
  ]);

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

describe('history reads while PostgreSQL is unavailable', needsPostgres, () => {
  let store: PostgresPriceStore;
  let app: Awaited<ReturnType<typeof buildHarness>>['app'];

  before(async () => {
    await adminQuery(`CREATE ROLE ${ROLE} LOGIN`);
    await adminQuery(`CREATE DATABASE ${DATABASE} OWNER ${ROLE}`);
    store = createPostgresPriceStore({ connectionString: urlFor(ROLE), poolSize: 2 });
    await store.init();
    ({ app } = await buildHarness({ history: store }));
  });

  after(async () => {
    await store?.close();
    await adminQuery(`DROP DATABASE IF EXISTS ${DATABASE} WITH (FORCE)`);
    await adminQuery(`DROP ROLE IF EXISTS ${ROLE}`);
  });

  const read = () => app.inject({ url: historyPath(), headers: auth(KEYS.pro) });
  const assertUnavailable = async (what: string) => {
    const response = await read();
    assert.equal(response.statusCode, 503, `${what}: ${response.body}`);
    assert.equal(response.headers['retry-after'], String(UNAVAILABLE_RETRY_SECONDS), what);
    assert.equal(response.json().code, 'UNAVAILABLE');
  };

  test('the store answers before any fault', async () => {
    assert.equal((await read()).statusCode, 200);
  });

  test('a refused database (ALLOW_CONNECTIONS false, backends terminated): 503', async () => {
    await adminQuery(`ALTER DATABASE ${DATABASE} ALLOW_CONNECTIONS false`);
    try {
      await terminateBackends();
      await assertUnavailable('pooled connections terminated');
      await assertUnavailable('new connections refused');
      const direct = createPool({ connectionString: urlFor(ROLE), poolSize: 1 });
      const error = await rejection(direct.query('SELECT 1'));
      await direct.end();
      assert.equal((error as { code?: string }).code, '55000', String(error));
    } finally {
      await adminQuery(`ALTER DATABASE ${DATABASE} ALLOW_CONNECTIONS true`);
    }
    assert.equal((await read()).statusCode, 200, 'served again once it accepts connections');
  });

  test('too many connections (53300): 503', async () => {
    await adminQuery(`ALTER ROLE ${ROLE} CONNECTION LIMIT 0`);
    try {
      await terminateBackends();
      await assertUnavailable('no connection slot for the role');
      const direct = createPool({ connectionString: urlFor(ROLE), poolSize: 1 });
      const error = await rejection(direct.query('SELECT 1'));
      await direct.end();
      assert.equal((error as { code?: string }).code, '53300', String(error));
    } finally {
      await adminQuery(`ALTER ROLE ${ROLE} CONNECTION LIMIT -1`);
    }
    assert.equal((await read()).statusCode, 200);
  });

  test('an administrator terminating a connection in use (57P01): 503', async () => {
    const pool = createPool({ connectionString: urlFor(ROLE), poolSize: 1 });
    const client = await pool.connect();
    try {
      await terminateBackends();
      const error = await rejection(client.query('SELECT pg_sleep(0)'));
      assert.equal(toApiError(error)?.statusCode, 503, String(error));
      assert.deepEqual(toApiError(error)?.headers, { 'Retry-After': UNAVAILABLE_RETRY_SECONDS });
    } finally {
      client.release(true);
      await pool.end();
    }
  });

  test('a read-only standby refusing a write (25006): 503', async () => {
    await adminQuery(`ALTER DATABASE ${DATABASE} SET default_transaction_read_only = on`);
    const pool = createPool({ connectionString: urlFor(ROLE), poolSize: 1 });
    try {
      const error = await rejection(pool.query('CREATE TABLE refused (id INT)'));
      assert.equal((error as { code?: string }).code, '25006', String(error));
      assert.equal(toApiError(error)?.statusCode, 503);
      assert.deepEqual(toApiError(error)?.headers, { 'Retry-After': UNAVAILABLE_RETRY_SECONDS });
    } finally {
      await pool.end();
      await adminQuery(`ALTER DATABASE ${DATABASE} RESET default_transaction_read_only`);
    }
  });

  test('a network cut (nothing listening): 503', async () => {
    const cut = createPostgresPriceStore({ connectionString: urlFor(ROLE, DATABASE, 1) });
    const error = await rejection(cut.init());
    await cut.close();
    assert.equal(toApiError(error)?.statusCode, 503, String(error));
    assert.deepEqual(toApiError(error)?.headers, { 'Retry-After': UNAVAILABLE_RETRY_SECONDS });
  });
});
