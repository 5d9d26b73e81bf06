/** Opens the access store of a data dir for one CLI command and closes it afterwards. */
import { createAdmin, type Admin } from '../access/admin.ts';
import { createSqliteAccessStore } from '../access/sqlite-access-store.ts';
import { systemClock } from '../domain/clock.ts';
import { dataPaths, ensureDataDir } from './data-dir.ts';

export async function withAdmin<T>(
  dataDir: string,
  work: (admin: Admin) => Promise<T>,
): Promise<T> {
  const paths = dataPaths(dataDir);
  ensureDataDir(paths);
  const store = createSqliteAccessStore({ path: paths.access });
  try {
    await store.init();
    return await work(createAdmin({ store, clock: systemClock }));
  } finally {
    await store.close();
  }
}
