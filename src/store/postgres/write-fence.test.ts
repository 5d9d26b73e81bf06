import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import { MINUTE, manualClock } from '../../domain/clock.ts';
import { T0, side } from '../contract-fixtures.ts';
import { StaleFenceError } from '../price-store.ts';
import { isUnavailableError } from '../unavailable.ts';
import { createPostgresPriceStore } from './postgres-price-store.ts';
import { DATABASE_URL, dropSchema, needsPostgres, testSchemaName } from './test-support.ts';

describe('PostgreSQL write fences', needsPostgres, () => {
  const schema = testSchemaName();
  const store = createPostgresPriceStore({
    connectionString: DATABASE_URL,
    schema,
    clock: manualClock(T0),
  });
  after(async () => {
    await store.close();
    await dropSchema(schema);
  });

  const batchAt = (minutes: number, market: 'csfloat' | 'waxpeer' = 'csfloat') => ({
    sides: [side({ market, fetchedAt: T0 + minutes * MINUTE, totalQuantity: minutes + 1 })],
    sales: [],
    listings: [],
  });
  const quantities = async () =>
    (await store.loadSides('cs2')).map((row) => `${row.market}:${row.totalQuantity}`).sort();

  test('a batch under a token older than a committed one is refused whole', async () => {
    await store.init();
    await store.writeBatch(batchAt(1), { scope: 'csfloat', token: 7 });
    await assert.rejects(
      store.writeBatch(batchAt(2), { scope: 'csfloat', token: 6 }),
      (error) => error instanceof StaleFenceError && /csfloat.*6/.test(error.message),
    );
    assert.deepEqual(await quantities(), ['csfloat:2'], 'the stale batch wrote nothing');
    await store.writeBatch(batchAt(3), { scope: 'csfloat', token: 7 });
    await store.writeBatch(batchAt(4), { scope: 'csfloat', token: 8 });
    await assert.rejects(store.writeBatch(batchAt(5), { scope: 'csfloat', token: 7 }));
    await store.writeBatch(batchAt(6, 'waxpeer'), { scope: 'waxpeer', token: 1 });
    assert.deepEqual(await quantities(), ['csfloat:5', 'waxpeer:7'], 'scopes are independent');
  });
});

/**
 * A relay to PostgreSQL that stops passing the client's bytes on once it has passed the fence
 * claim: the server sees the client idle in its transaction, as a SIGSTOPped holder would leave
 * it. `claimed` resolves when the server has answered the claim (the fence row is locked).
 */
async function freezingRelay(): Promise<{ url: string; claimed: Promise<void>; close(): void }> {
  const target = new URL(DATABASE_URL);
  const sockets: net.Socket[] = [];
  let answered = () => {};
  const claimed = new Promise<void>((resolve) => (answered = resolve));
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(target.port || 5432), target.hostname);
    sockets.push(client, upstream);
    let frozen = false;
    client.on('data', (chunk: Buffer) => {
      upstream.write(chunk);
      if (!chunk.includes('claim_fence')) return;
      frozen = true;
      client.pause().removeAllListeners('data');
    });
    upstream.on('data', (chunk: Buffer) => {
      client.write(chunk);
      if (frozen) answered();
    });
    upstream.on('end', () => client.end());
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = new URL(DATABASE_URL);
  url.host = `127.0.0.1:${(server.address() as net.AddressInfo).port}`;
  return {
    url: url.href,
    claimed,
    close: () => {
      for (const socket of sockets) socket.destroy();
      server.close();
    },
  };
}

describe('PostgreSQL write fences with a paused holder', needsPostgres, () => {
  test(
    "the server ends the holder's idle transaction, so the next holder writes",
    { timeout: 60_000 },
    async () => {
      const schema = testSchemaName();
      const relay = await freezingRelay();
      const options = { schema, clock: manualClock(T0), fencedIdleLimitMs: 300 };
      const next = createPostgresPriceStore({ connectionString: DATABASE_URL, ...options });
      const paused = createPostgresPriceStore({ connectionString: relay.url, ...options });
      try {
        await next.init();
        await paused.init();
        const batch = (quantity: number) => ({
          sides: [side({ market: 'csfloat', fetchedAt: T0, totalQuantity: quantity })],
          sales: [],
          listings: [],
        });
        const held = paused.writeBatch(batch(1), { scope: 'csfloat', token: 1 });
        held.catch(() => undefined);
        await relay.claimed;
        await next.writeBatch(batch(2), { scope: 'csfloat', token: 2 });
        assert.deepEqual(
          (await next.loadSides('cs2')).map((row) => row.totalQuantity),
          [2],
        );
        const ended = await held.then(
          () => null,
          (error: unknown) => error,
        );
        assert.ok(
          isUnavailableError(ended),
          `the paused write ends as an outage: ${String(ended)}`,
        );
      } finally {
        relay.close();
        await Promise.all([paused.close().catch(() => undefined), next.close()]);
        await dropSchema(schema);
      }
    },
  );
});
