import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import { createPool } from './driver.ts';
import { createPostgresPriceStore } from './postgres-price-store.ts';
import { DATABASE_URL, adminQuery, needsPostgres } from './test-support.ts';
import { isUnavailableError } from '../unavailable.ts';

const CLOSED_PORT_URL = 'postgres://postgres@127.0.0.1:5499/test';

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

describe('isUnavailableError', () => {
  test('recognises a pool pointed at a closed port', async () => {
    const pool = createPool({ connectionString: CLOSED_PORT_URL });
    const error = await rejection(pool.query('SELECT 1'));
    await pool.end();
    assert.equal(isUnavailableError(error), true, String(error));
  });

  test('recognises a price store that cannot reach its server', async () => {
    const store = createPostgresPriceStore({
      connectionString: CLOSED_PORT_URL,
      schema: 'nowhere',
    });
    const error = await rejection(store.init());
    await store.close();
    assert.equal(isUnavailableError(error), true, String(error));
  });

  test('recognises a server that accepts the socket but never answers', async () => {
    const accepted: net.Socket[] = [];
    const silent = net.createServer((socket) => accepted.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as net.AddressInfo;
    const pool = createPool({
      connectionString: `postgres://postgres@127.0.0.1:${port}/test`,
      connectionTimeoutMillis: 100,
    });
    const error = await rejection(pool.query('SELECT 1'));
    await pool.end();
    for (const socket of accepted) socket.destroy();
    await new Promise((resolve) => silent.close(resolve));
    assert.equal(isUnavailableError(error), true, String(error));
  });

  test('looks inside AggregateError lists and cause chains', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED ::1:5432'), {
      code: 'ECONNREFUSED',
    });
    assert.equal(isUnavailableError(new AggregateError([refused], 'dual stack')), true);
    assert.equal(isUnavailableError(new Error('wrapped', { cause: refused })), true);
  });

  test('knows the server states that mean "try again later"', () => {
    for (const code of [
      '57P01',
      '57P02',
      '57P03',
      '25P03',
      '53300',
      '53400',
      '25006',
      '08006',
      '08001',
    ]) {
      assert.equal(isUnavailableError(Object.assign(new Error(code), { code })), true, code);
    }
  });

  test('leaves every other failure alone', () => {
    const others: unknown[] = [
      Object.assign(new Error('duplicate key value'), { code: '23505' }),
      Object.assign(new Error('syntax error'), { code: '42601' }),
      Object.assign(new Error('cannot drop table: in use'), { code: '55000' }),
      new Error('PostgresPriceStore: call init() first'),
      'ECONNREFUSED',
      null,
      undefined,
    ];
    for (const error of others) assert.equal(isUnavailableError(error), false, String(error));
  });
});

/** Waits until the server has ended the backend (and sent its FATAL), then lets pg read it. */
async function backendGone(pid: number | undefined): Promise<void> {
  for (;;) {
    const alive = await adminQuery('SELECT 1 FROM pg_stat_activity WHERE pid = $1', [pid]);
    if (alive.length === 0) break;
  }
  await new Promise((resolve) => setTimeout(resolve, 20));
}

describe('isUnavailableError against a live server', needsPostgres, () => {
  const pool = createPool({ connectionString: DATABASE_URL, poolSize: 1 });
  after(() => pool.end());

  test('a query error is not an outage', async () => {
    const error = await rejection(pool.query('SELEC 1'));
    assert.equal(isUnavailableError(error), false);
  });

  test('a checked-out connection the server terminates is, and does not crash', async () => {
    const client = await pool.connect();
    const [row] = (await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows;
    await adminQuery('SELECT pg_terminate_backend($1)', [row?.pid]);
    await backendGone(row?.pid);
    const error = await rejection(client.query('SELECT 1'));
    client.release(true);
    assert.equal(isUnavailableError(error), true, String(error));
  });
});
