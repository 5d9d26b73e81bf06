/** Helpers for the SQLite store's own tests. */
import fs from 'node:fs';
import path from 'node:path';
import type Database from 'better-sqlite3';
import { journalDirOf } from './journal-segments.ts';
import { decodeChunk } from './rollup-chunks.ts';

/** The details of `EXPLAIN QUERY PLAN sql`, joined with '; '. */
export function queryPlan(db: Database.Database, sql: string): string {
  return db
    .prepare<[], { detail: string }>(`EXPLAIN QUERY PLAN ${sql}`)
    .all()
    .map((row) => row.detail)
    .join('; ');
}

/**
 * A tier's loose rows in all its periods' tables (marker rows left out), chunks' entries as rows
 * of their own (rollup-chunks.ts), as a subquery: a temporary table filled at each call.
 */
export function looseRows(db: Database.Database, tier: string): string {
  const tables = db
    .prepare<[], string>(
      `SELECT name FROM history.sqlite_schema WHERE type = 'table' AND name GLOB 'rollups_${tier}_*'`,
    )
    .pluck()
    .all();
  const name = `temp.loose_${tier}`;
  db.exec(`DROP TABLE IF EXISTS ${name};
    CREATE TABLE ${name} (bucket INTEGER, series INTEGER, ask BLOB, bid BLOB, sales BLOB)`);
  const insert = db.prepare(`INSERT INTO ${name} VALUES (?, ?, ?, ?, ?)`);
  type Row = [number, number, Buffer | null, Buffer | null, Buffer | null];
  for (const table of tables) {
    const rows = db.prepare<[], Row>(`SELECT * FROM history.${table} WHERE bucket >= 0`).raw();
    for (const [bucket, series, ask, bid, sales] of rows.all()) {
      if (series >= 0) insert.run(bucket, series, ask, bid, sales);
      else for (const [id, entry] of decodeChunk(series, ask!)) insert.run(bucket, id, ...entry);
    }
  }
  return `(SELECT * FROM ${name} ORDER BY bucket, series)`;
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
