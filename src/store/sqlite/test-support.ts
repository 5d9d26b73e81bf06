/** Helpers for the SQLite store's own tests. */
import type Database from 'better-sqlite3';

/** The details of `EXPLAIN QUERY PLAN sql`, joined with '; '. */
export function queryPlan(db: Database.Database, sql: string): string {
  return db
    .prepare<[], { detail: string }>(`EXPLAIN QUERY PLAN ${sql}`)
    .all()
    .map((row) => row.detail)
    .join('; ');
}
