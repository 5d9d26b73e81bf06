/**
 * The demo key on a store several processes may boot against at once: when two API processes
 * race to create the demo account, the loser's insert fails on the unique name; that is not
 * an error (the winner printed the key and wrote it to its own data dir).
 */
import { DEMO_ACCOUNT_NAME, createAdmin } from '../access/admin.ts';
import type { AccessStore } from '../access/access-store.ts';
import { dataPaths, ensureDataDir } from './data-dir.ts';
import type { Clock } from '../domain/clock.ts';
import { ensureDemoKey } from './demo-key.ts';

export async function ensureSharedDemoKey(
  store: AccessStore,
  clock: Clock,
  dataDir: string,
): Promise<string | null> {
  const paths = dataPaths(dataDir);
  ensureDataDir(paths);
  try {
    return await ensureDemoKey(createAdmin({ store, clock }), paths.demoKey);
  } catch (error) {
    if (await store.getAccountByName(DEMO_ACCOUNT_NAME)) return null;
    throw error;
  }
}
