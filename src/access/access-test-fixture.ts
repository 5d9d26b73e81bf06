/** Shared setup for the access tests: a SQLite store, the admin API and a manual clock. */
import { manualClock } from '../domain/clock.ts';
import { createSqliteAccessStore } from './sqlite-access-store.ts';
import { createAdmin } from './admin.ts';

export const T0 = Date.parse('2026-11-01T00:00:00Z');

export async function accessFixture(path = ':memory:') {
  const clock = manualClock(T0);
  const store = createSqliteAccessStore({ path });
  await store.init();
  const admin = createAdmin({ store, clock });
  return { clock, store, admin };
}
