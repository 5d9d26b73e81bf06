/**
 * A read that must not wait on the event loop's thread for a lock: with a rollback journal (the
 * history file, issue 31) a writer's commit holds readers off, and a read under the connection's
 * busy timeout would sleep on the thread for as long as the commit takes (3.2 s seen for a
 * first start's backfill fold, every request of the process held with it). The read is tried
 * without a busy timeout and, while the file is locked, tried again on a timer; other work runs
 * in between. A read that cannot get the lock in GIVE_UP_MS fails as busy.
 */
import type Database from 'better-sqlite3';

const RETRY_MS = 5;
const GIVE_UP_MS = 30_000;

const isBusy = (error: unknown) =>
  typeof error === 'object' &&
  error !== null &&
  String((error as { code?: unknown }).code).startsWith('SQLITE_BUSY');

/** `read` retried while the lock it needs is held; it must not have side effects before its first read. */
export async function readWhenUnlocked<T>(db: Database.Database, read: () => T): Promise<T> {
  const started = performance.now();
  const timeout = db.pragma('busy_timeout', { simple: true }) as number;
  for (;;) {
    db.pragma('busy_timeout = 0');
    try {
      return read();
    } catch (error) {
      if (!isBusy(error) || performance.now() - started > GIVE_UP_MS) throw error;
    } finally {
      db.pragma(`busy_timeout = ${timeout}`);
    }
    await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
  }
}
