import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import { createAccessService } from './access-service.ts';
import { createAdmin } from './admin.ts';
import { createPostgresAccessStore } from './postgres-access-store.ts';
import { systemClock } from '../domain/clock.ts';
import {
  DATABASE_URL,
  dropSchema,
  needsPostgres,
  testSchemaName,
} from '../store/postgres/test-support.ts';

const IP = '198.51.100.7';

/** A TCP relay to PostgreSQL that can be cut: to the API process, a real outage. */
async function cuttableRelay(target: URL) {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(target.port || 5432), target.hostname);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('error', () => socket.destroy());
      socket.on('close', () => sockets.delete(socket));
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  const url = new URL(target.href);
  url.hostname = '127.0.0.1';
  url.port = String(port);
  return {
    url: url.href,
    async cut() {
      const closed = new Promise((resolve) => server.close(resolve));
      for (const socket of sockets) socket.destroy();
      await closed;
    },
  };
}

describe('AccessService on PostgreSQL: a key change, then an outage', needsPostgres, () => {
  const schema = testSchemaName();
  after(() => dropSchema(schema));

  test('the keys in use keep authenticating; the revoked one is refused', async () => {
    const relay = await cuttableRelay(new URL(DATABASE_URL));
    const cliStore = createPostgresAccessStore({ connectionString: DATABASE_URL, schema });
    const apiStore = createPostgresAccessStore({
      connectionString: relay.url,
      schema,
      // Generous for a loaded machine: once the relay is cut, a connect is refused at once.
      connectionTimeoutMillis: 30_000,
    });
    try {
      await cliStore.init();
      await apiStore.init();
      const admin = createAdmin({ store: cliStore, clock: systemClock });
      await admin.createAccount('acme', 'pro');
      const kept = await admin.createKey({ accountName: 'acme' });
      const revoked = await admin.createKey({ accountName: 'acme' });
      const service = createAccessService({ store: apiStore });
      await service.refreshNow();
      const now = systemClock.now();
      for (const { key } of [kept, revoked]) {
        assert.equal((await service.authenticate(`ApiKey ${key}`, IP, now)).ok, true);
      }

      await admin.revokeKey(revoked.id);
      await service.refreshNow();
      await relay.cut();
      await assert.rejects(apiStore.version(), 'the store is unreachable now');

      assert.equal((await service.authenticate(`ApiKey ${kept.key}`, IP, now)).ok, true);
      const refused = await service.authenticate(`ApiKey ${revoked.key}`, IP, now);
      assert.equal(refused.ok === false && refused.status, 401);
    } finally {
      await relay.cut();
      await apiStore.close();
      await cliStore.close();
    }
  });
});
