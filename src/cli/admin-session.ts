/**
 * Opens the access store the configuration names (PostgreSQL with DATABASE_URL, else SQLite in
 * the data dir) for one CLI command and closes it afterwards.
 */
import { createAdmin, type Admin } from '../access/admin.ts';
import { createAccessStore } from '../boot/stores.ts';
import type { StoreConfig } from '../config.ts';
import { systemClock } from '../domain/clock.ts';

export async function withAdmin<T>(
  config: StoreConfig,
  work: (admin: Admin) => Promise<T>,
): Promise<T> {
  const store = createAccessStore(config, systemClock);
  try {
    await store.init();
    return await work(createAdmin({ store, clock: systemClock }));
  } finally {
    await store.close();
  }
}
