import { describe } from 'node:test';
import { bucketHistoryContract } from '../bucket-history-contract.ts';
import { createPostgresPriceStore } from './postgres-price-store.ts';
import { DATABASE_URL, dropSchema, needsPostgres, testSchemaName } from './test-support.ts';

describe('PostgreSQL bucket history', needsPostgres, () => {
  bucketHistoryContract('postgres', async () => {
    const schema = testSchemaName();
    return {
      store: createPostgresPriceStore({ connectionString: DATABASE_URL, schema, poolSize: 3 }),
      cleanup: () => dropSchema(schema),
    };
  });
});
