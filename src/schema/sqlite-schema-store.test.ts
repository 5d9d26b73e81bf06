import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { schemaStoreContract } from './schema-store-contract.ts';
import { createSqliteSchemaStore } from './sqlite-schema-store.ts';

schemaStoreContract('sqlite', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'schema-store-'));
  const path = join(dir, 'prices.sqlite');
  return {
    open: () => createSqliteSchemaStore({ path, now: () => 0 }),
    cleanup: async () => rmSync(dir, { recursive: true, force: true }),
  };
});
