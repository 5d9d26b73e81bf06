import { describe } from 'node:test';
import {
  DATABASE_URL,
  dropSchema,
  needsPostgres,
  testSchemaName,
} from '../store/postgres/test-support.ts';
import { createPostgresSchemaStore } from './postgres-schema-store.ts';
import { schemaStoreContract } from './schema-store-contract.ts';

describe('PostgreSQL', needsPostgres, () => {
  schemaStoreContract('postgres', async () => {
    const schema = testSchemaName();
    return {
      open: () =>
        createPostgresSchemaStore({
          connectionString: DATABASE_URL,
          schema,
          poolSize: 2,
          now: () => 0,
        }),
      cleanup: () => dropSchema(schema),
    };
  });
});
