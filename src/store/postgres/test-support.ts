/**
 * Helpers for suites that need a real PostgreSQL: the URL from DATABASE_URL (suites skip
 * visibly when it is unset) and a throwaway schema per store, dropped afterwards, so test
 * files running in parallel never see each other's tables.
 */
import { randomBytes } from 'node:crypto';
import { createPool } from './driver.ts';

export const DATABASE_URL = process.env.DATABASE_URL ?? '';

/** Options for a describe that needs PostgreSQL: skipped, with the reason printed, without it. */
export const needsPostgres: { skip: string | false } = {
  skip: DATABASE_URL ? false : 'DATABASE_URL not set',
};

export function testSchemaName(): string {
  return `test_${randomBytes(6).toString('hex')}`;
}

/** Runs one statement on a short-lived connection (outside any store's pool). */
export async function adminQuery<Row = Record<string, unknown>>(
  text: string,
  values: unknown[] = [],
  schema?: string,
): Promise<Row[]> {
  const pool = createPool({
    connectionString: DATABASE_URL,
    poolSize: 1,
    ...(schema === undefined ? {} : { schema }),
  });
  try {
    return (await pool.query<Row>(text, values)).rows;
  } finally {
    await pool.end();
  }
}

export async function dropSchema(schema: string): Promise<void> {
  await adminQuery(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
}
