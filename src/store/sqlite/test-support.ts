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

/** A tier's loose rows in all its periods' tables (marker rows left out), as a subquery. */
export function looseRows(db: Database.Database, tier: string): string {
  const tables = db
    .prepare<[], string>(
      `SELECT name FROM history.sqlite_schema WHERE type = 'table' AND name GLOB 'rollups_${tier}_*'`,
    )
    .pluck()
    .all();
  const union = tables.map((name) => `SELECT * FROM history.${name} WHERE bucket >= 0`);
  const none = 'SELECT 0 AS bucket, 0 AS series, NULL AS ask, NULL AS bid, NULL AS sales WHERE 0';
  return `(${union.join(' UNION ALL ') || none})`;
}
