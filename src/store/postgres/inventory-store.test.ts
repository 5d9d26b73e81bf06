import { after, describe } from 'node:test';
import { manualClock } from '../../domain/clock.ts';
import { inventoryStoreContract } from '../inventory-store-contract.ts';
import { createPostgresInventoryStore } from './inventory-store.ts';
import { DATABASE_URL, dropSchema, needsPostgres, testSchemaName } from './test-support.ts';

describe('PostgreSQL inventory store', needsPostgres, () => {
  const schemas: string[] = [];
  after(async () => {
    for (const schema of schemas) await dropSchema(schema);
  });
  inventoryStoreContract('postgres', () => {
    const schema = testSchemaName();
    schemas.push(schema);
    return createPostgresInventoryStore({
      connectionString: DATABASE_URL,
      schema,
      clock: manualClock(),
    });
  });
});
