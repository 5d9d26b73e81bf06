/**
 * Applies pending SQLite migrations. All pending steps and their schema_migrations rows commit
 * in one IMMEDIATE transaction: a crash or a failing step leaves the previous schema intact,
 * and two processes opening the same file at once apply each version exactly once.
 */
import type Database from 'better-sqlite3';
import { pendingMigrations } from '../migration-plan.ts';
import type { SqliteMigration } from './migrations.ts';

const CREATE_LEDGER = `
CREATE TABLE IF NOT EXISTS schema_migrations (
  version INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  applied_at INTEGER NOT NULL
) STRICT`;

export interface AppliedMigration {
  version: number;
  name: string;
  appliedAt: number;
}

export function appliedMigrations(db: Database.Database): AppliedMigration[] {
  db.exec(CREATE_LEDGER);
  return db
    .prepare<[], AppliedMigration>(
      'SELECT version, name, applied_at AS appliedAt FROM schema_migrations ORDER BY version',
    )
    .all();
}

/** Runs what is pending; returns the versions it applied (empty when up to date). */
export function migrate(
  db: Database.Database,
  migrations: readonly SqliteMigration[],
  now: () => number,
): number[] {
  db.exec(CREATE_LEDGER);
  const record = db.prepare<[number, string, number]>(
    'INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)',
  );
  const applyPending = db.transaction((): number[] => {
    const done = appliedMigrations(db).map((row) => row.version);
    const pending = pendingMigrations(migrations, done);
    for (const step of pending) {
      db.exec(step.sql);
      record.run(step.version, step.name, now());
    }
    return pending.map((step) => step.version);
  });
  return applyPending.immediate();
}
