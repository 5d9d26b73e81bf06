/**
 * The history file (`prices.history.db`, attached as schema `history`) in a rollback journal: the
 * rollup tables, the fold marks (per segment the bytes folded, per tier the highest bucket stored)
 * and the retention cutoffs; earlier layouts and WAL are converted on attach. Design:
 * docs/history-storage.md, "Rollups, maintained on write" and "SQLite layout".
 */
import type Database from 'better-sqlite3';
import { TIERS, type Tier } from '../../pricing/rollup-buckets.ts';
import { PAGE_BUCKETS } from './page-format.ts';

export const HISTORY_SCHEMA = 'history';

export const historyPathOf = (pricesPath: string) =>
  pricesPath === ':memory:' ? pricesPath : pricesPath.replace(/(\.db)?$/, '.history.db');

const ROW_COLUMNS = 'series, bucket, ask, bid, sales';
/** Per kind (docs/history-storage.md, "SQLite layout"): the time key, the columns, the table. */
const TABLES = {
  rollups: ['bucket', ROW_COLUMNS, 'ask BLOB, bid BLOB, sales BLOB', ', WITHOUT ROWID'],
  pages: ['period', 'series, period, data', 'data BLOB NOT NULL', ''],
} as const;
export const createTable = (kind: keyof typeof TABLES, name: string) => {
  const [key, , columns, rowid] = TABLES[kind];
  return `CREATE TABLE IF NOT EXISTS ${HISTORY_SCHEMA}.${name} (${key} INTEGER NOT NULL,
    series INTEGER NOT NULL, ${columns}, PRIMARY KEY (${key}, series)) STRICT${rowid};`;
};

const schema = `
${TIERS.map((tier) => createTable('pages', `pages_${tier}`)).join('\n')}
CREATE TABLE IF NOT EXISTS ${HISTORY_SCHEMA}.fold_mark (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  journal_id INTEGER NOT NULL,
  ${TIERS.map((tier) => `frontier_${tier} INTEGER NOT NULL DEFAULT -1`).join(', ')}
) STRICT;
INSERT OR IGNORE INTO ${HISTORY_SCHEMA}.fold_mark (id, journal_id) VALUES (1, 0);
CREATE TABLE IF NOT EXISTS ${HISTORY_SCHEMA}.journal_marks (segment TEXT PRIMARY KEY,
  offset INTEGER NOT NULL, deferred INTEGER) STRICT, WITHOUT ROWID;
-- Per tier, the retention cutoff reached (a bucket index): reads skip the buckets below it.
CREATE TABLE IF NOT EXISTS ${HISTORY_SCHEMA}.expired (
  tier TEXT PRIMARY KEY,
  bucket INTEGER NOT NULL
) STRICT, WITHOUT ROWID;
`;

function columnsOf(db: Database.Database, table: string, schema = HISTORY_SCHEMA): string[] {
  return (db.pragma(`${schema}.table_info(${table})`) as { name: string }[]).map((row) => row.name);
}

/** Converts every earlier layout, copy then drop (docs/history-storage.md, "SQLite layout"). */
function moveEarlierLayouts(db: Database.Database): void {
  for (const table of TIERS.flatMap((tier) => [`rollups_${tier}`, `pages_${tier}`])) {
    for (const schema of ['main', HISTORY_SCHEMA]) {
      const [kind, tier] = table.split('_') as [keyof typeof TABLES, Tier];
      const [key, columns] = TABLES[kind];
      const found = columnsOf(db, table, schema);
      const copy = kind === 'pages' && schema !== 'main' ? `time_first_${table}` : table;
      if (found.length === 0 || (copy !== table && found[0] !== 'series')) continue;
      const from = !found.includes('run')
        ? `${schema}.${table}`
        : `(WITH RECURSIVE runs (${ROW_COLUMNS}, last) AS (SELECT ${ROW_COLUMNS}, bucket + run - 1
          FROM ${schema}.${table} UNION ALL SELECT series, bucket + 1, ask, bid, sales, last
          FROM runs WHERE bucket < last) SELECT * FROM runs)`;
      const width = PAGE_BUCKETS[tier];
      const sql = kind === 'pages' ? 'SELECT 0 WHERE 0' : `SELECT bucket / ${width} FROM ${from}`;
      const periods = db.prepare<[], number>(`${sql} GROUP BY 1`).pluck().all();
      const rows = (at: number) => `WHERE bucket BETWEEN ${at * width} AND ${(at + 1) * width - 1}`;
      const copies = periods.map((at) => [`${table}_${at}`, rows(at)]);
      if (kind === 'pages') copies.push([copy, '']);
      db.transaction(() => {
        for (const [into, where] of copies)
          db.exec(`${createTable(kind, into!)} INSERT OR REPLACE INTO ${HISTORY_SCHEMA}.${into}
            (${columns}) SELECT ${columns} FROM ${from} ${where} ORDER BY ${key}, series`);
        if (kind === 'rollups')
          db.exec(`UPDATE ${HISTORY_SCHEMA}.fold_mark SET frontier_${tier} =
          max(frontier_${tier}, (SELECT ifnull(max(bucket), -1) FROM ${from}))`);
      })();
      const rename = `ALTER TABLE ${HISTORY_SCHEMA}.${copy} RENAME TO ${table}`;
      db.exec(`BEGIN; DROP TABLE ${schema}.${table}; ${copy === table ? '' : rename};
        DROP TABLE IF EXISTS ${HISTORY_SCHEMA}.time_first_${table}; COMMIT`);
    }
  }
  if (!columnsOf(db, 'journal_marks').includes('deferred'))
    db.exec(`ALTER TABLE ${HISTORY_SCHEMA}.journal_marks ADD COLUMN deferred INTEGER`);
  const marks = columnsOf(db, 'fold_mark').filter((name) => /^(settled|late)_/.test(name));
  for (const mark of marks) db.exec(`ALTER TABLE ${HISTORY_SCHEMA}.fold_mark DROP COLUMN ${mark}`);
}

/** Attaches (creating or upgrading) the history file; call after the prices migrations. */
export function attachHistory(db: Database.Database, path: string, pragmas: { cacheKib: number }) {
  db.prepare(`ATTACH DATABASE ? AS ${HISTORY_SCHEMA}`).run(historyPathOf(path));
  db.pragma(`${HISTORY_SCHEMA}.journal_mode = TRUNCATE`);
  db.pragma(`${HISTORY_SCHEMA}.synchronous = FULL`);
  db.pragma(`${HISTORY_SCHEMA}.cache_size = -${pragmas.cacheKib}`);
  db.pragma(`${HISTORY_SCHEMA}.page_size = 8192`); // a new file's: a fold's rows in 8% fewer bytes
  db.exec(schema);
  moveEarlierLayouts(db);
}
