/**
 * Applies pending PostgreSQL migrations. Everything runs in ONE transaction holding a
 * transaction-scoped advisory lock keyed by (ledger, schema): processes booting at once queue
 * on the lock, and the second one finds the work done. PostgreSQL DDL is transactional, so a
 * failing step leaves the previous schema and ledger untouched.
 */
import { pendingMigrations } from '../migration-plan.ts';
import type { MigrationStep } from '../migration-plan.ts';
import { assertSchemaName, inTransaction } from './driver.ts';
import type { Pool, Queryable } from './driver.ts';

export interface PostgresMigration extends MigrationStep {
  sql: string;
}

export interface MigrationRun {
  /** Ledger table name (one per store, so stores can share a schema). */
  ledger: string;
  migrations: readonly PostgresMigration[];
  /** Schema to create when missing (the one the pool's search_path names). */
  schema?: string;
  now: () => number;
}

const IDENTIFIER = /^[a-z_][a-z0-9_]*$/;

async function lockMigrations(client: Queryable, run: MigrationRun): Promise<void> {
  await client.query(
    `SELECT pg_advisory_xact_lock(hashtext($1 || ':' || coalesce($2, current_schema(), '')))`,
    [run.ledger, run.schema ?? null],
  );
}

async function appliedVersions(client: Queryable, ledger: string): Promise<number[]> {
  await client.query(`
    CREATE TABLE IF NOT EXISTS ${ledger} (
      version INTEGER PRIMARY KEY,
      name TEXT NOT NULL,
      applied_at BIGINT NOT NULL
    )`);
  const result = await client.query<{ version: number }>(
    `SELECT version FROM ${ledger} ORDER BY version`,
  );
  return result.rows.map((row) => row.version);
}

/** Runs what is pending; returns the versions it applied (empty when up to date). */
export async function migrate(pool: Pool, run: MigrationRun): Promise<number[]> {
  if (!IDENTIFIER.test(run.ledger)) throw new Error(`invalid ledger name ${run.ledger}`);
  return inTransaction(pool, async (client) => {
    await lockMigrations(client, run);
    if (run.schema !== undefined) {
      await client.query(`CREATE SCHEMA IF NOT EXISTS ${assertSchemaName(run.schema)}`);
    }
    const pending = pendingMigrations(run.migrations, await appliedVersions(client, run.ledger));
    for (const step of pending) {
      await client.query(step.sql);
      await client.query(
        `INSERT INTO ${run.ledger} (version, name, applied_at) VALUES ($1, $2, $3)`,
        [step.version, step.name, run.now()],
      );
    }
    return pending.map((step) => step.version);
  });
}
