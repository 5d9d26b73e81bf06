/**
 * The schema store the configuration names, beside the price store: PostgreSQL with a
 * DATABASE_URL (same schema and migration ledger), else the SQLite prices file in the data dir.
 */
import { dataPaths, ensureDataDir } from './data-dir.ts';
import type { StoreConfig } from '../config.ts';
import type { Clock } from '../domain/clock.ts';
import { createPostgresSchemaStore } from '../schema/postgres-schema-store.ts';
import type { SchemaStore } from '../schema/schema-store.ts';
import { createSqliteSchemaStore } from '../schema/sqlite-schema-store.ts';

export function createSchemaStore(config: StoreConfig, clock: Clock): SchemaStore {
  const now = () => clock.now();
  if (config.databaseUrl !== null) {
    return createPostgresSchemaStore({
      connectionString: config.databaseUrl,
      schema: config.pgSchema,
      poolSize: 2,
      now,
    });
  }
  const paths = dataPaths(config.dataDir);
  ensureDataDir(paths);
  return createSqliteSchemaStore({ path: paths.prices, now });
}

export async function withSchemaStore<T>(
  config: StoreConfig,
  clock: Clock,
  work: (store: SchemaStore) => Promise<T>,
): Promise<T> {
  const store = createSchemaStore(config, clock);
  try {
    await store.init();
    return await work(store);
  } finally {
    await store.close();
  }
}
