/** Helpers for the SQLite store's own tests. */
import fs from 'node:fs';
import path from 'node:path';
import type Database from 'better-sqlite3';
import { journalDirOf } from './journal-segments.ts';

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

/** Journal bytes not folded yet: per segment of the prices file `file`, its size past its mark. */
export function unfoldedBytes(db: Database.Database, file: string): number {
  const dir = journalDirOf(file);
  const marks = new Map(
    db
      .prepare<[], [string, number]>('SELECT segment, offset FROM history.journal_marks')
      .raw()
      .all(),
  );
  const past = (name: string) => fs.statSync(path.join(dir, name)).size - (marks.get(name) ?? 0);
  return fs.readdirSync(dir).reduce((sum, name) => sum + past(name), 0);
}
