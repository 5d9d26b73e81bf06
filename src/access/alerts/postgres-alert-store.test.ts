import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { AlertStore } from './alert-store.ts';
import { alertStoreContract, sampleAlert } from './alert-store-contract.ts';
import { createPostgresAlertStore } from './postgres-alert-store.ts';
import {
  DATABASE_URL,
  dropSchema,
  needsPostgres,
  testSchemaName,
} from '../../store/postgres/test-support.ts';

describe('PostgreSQL alert store', needsPostgres, () => {
  const schemas: string[] = [];
  after(async () => {
    for (const schema of schemas) await dropSchema(schema);
  });

  function openStore(schema = testSchemaName()): AlertStore {
    if (!schemas.includes(schema)) schemas.push(schema);
    return createPostgresAlertStore({ connectionString: DATABASE_URL, schema });
  }

  alertStoreContract('postgres', () => openStore());

  test('two processes claiming at once never lease the same delivery', async () => {
    const schema = testSchemaName();
    const [one, two] = [openStore(schema), openStore(schema)];
    await one.init();
    await two.init();
    await one.createAlert(sampleAlert('alt_1'));
    const memory = { lastFiredAt: null, referenceAsk: 1, armed: true };
    for (let i = 0; i < 40; i++) {
      const id = `evt_${String(i).padStart(2, '0')}`;
      await one.recordFiring('alt_1', null, memory, {
        id,
        alertId: 'alt_1',
        body: '{}',
        createdAt: i,
      });
    }
    const claims = await Promise.all(
      [one, two, one, two].map((store, n) =>
        store.claimDue({ owner: `p${n}`, now: 100, leaseMs: 1000, limit: 15 }),
      ),
    );
    const ids = claims.flat().map((d) => d.id);
    assert.equal(ids.length, 40);
    assert.equal(new Set(ids).size, 40);
    await one.close();
    await two.close();
  });
});
