/**
 * The history file: the rollup tables in a SQLite file of their own beside the prices file
 * (`prices.db` → `prices.history.db`), attached to every store connection as schema `history`,
 * so a fold holds this file's write lock only and never holds up batches committing to the
 * prices file. It records the last journal id folded (fold_mark, in the fold's transaction: an
 * entry is folded once even when a fold dies between the two files' commits) and per tier the
 * highest bucket ever stored (a frontier: no row lies beyond it).
 *
 * Older layouts are converted when attached: the run layout (rows standing for runs of equal
 * buckets, settled and late marks) becomes one row per bucket; then rows and pages keyed series
 * first, as every earlier layout kept them, move to tables keyed time first, as do rollups kept
 * in the prices file before the split (copy, then drop, each committed on its own).
 */
import type Database from 'better-sqlite3';
import { TIERS } from '../../pricing/rollup-buckets.ts';

export const HISTORY_SCHEMA = 'history';

/** The history file of a prices file (':memory:' stays in memory). */
export function historyPathOf(pricesPath: string): string {
  if (pricesPath === ':memory:') return ':memory:';
  const stem = pricesPath.endsWith('.db') ? pricesPath.slice(0, -3) : pricesPath;
  return `${stem}.history.db`;
}

// Two tables per tier. A series is an item on one market, or the item's cross-market aggregate
// (history_series, in the prices file); a loose row per (bucket, series) holds the ask, bid and
// sales sections in the shared rollup codec (NULL when the bucket observed none of that kind);
// bucket is floor(start / tier width). A page holds the buckets of period
// floor(bucket / PAGE_BUCKETS) of a series. Both are keyed time first, so a fold's rows of a
// closing bucket and a packing pass's pages are appended at the B-tree's right edge. Pages are
// a rowid table: a WITHOUT ROWID table repeats its rows in interior pages and, past about 1 KB,
// leaves half of each overflow page empty (measured: 4.0 MB on disk for 2.4 MB of pages).
const ROW_COLUMNS = 'series, bucket, ask, bid, sales';
/** Per kind: the time key, the columns, and the table (keyed time first) under a name. */
const TABLES = {
  rollups: ['bucket', ROW_COLUMNS, 'ask BLOB, bid BLOB, sales BLOB', ', WITHOUT ROWID'],
  pages: ['period', 'series, period, data', 'data BLOB NOT NULL', ''],
} as const;
const create = (kind: keyof typeof TABLES, name: string) => {
  const [key, , columns, rowid] = TABLES[kind];
  return `CREATE TABLE IF NOT EXISTS ${HISTORY_SCHEMA}.${name} (${key} INTEGER NOT NULL,
    series INTEGER NOT NULL, ${columns}, PRIMARY KEY (${key}, series)) STRICT${rowid};`;
};
const rollupTable = (tier: string) =>
  `${create('rollups', `rollups_${tier}`)}\n${create('pages', `pages_${tier}`)}`;

const schema = `
${TIERS.map(rollupTable).join('\n')}
CREATE TABLE IF NOT EXISTS ${HISTORY_SCHEMA}.fold_mark (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  journal_id INTEGER NOT NULL,
  ${TIERS.map((tier) => `frontier_${tier} INTEGER NOT NULL DEFAULT -1`).join(', ')}
) STRICT;
INSERT OR IGNORE INTO ${HISTORY_SCHEMA}.fold_mark (id, journal_id) VALUES (1, 0);
-- Per tier, the retention cutoff reached (a bucket index): pages are deleted whole once their
-- period has expired, and reads skip their buckets below it until then.
CREATE TABLE IF NOT EXISTS ${HISTORY_SCHEMA}.expired (
  tier TEXT PRIMARY KEY,
  bucket INTEGER NOT NULL
) STRICT, WITHOUT ROWID;
`;

function columnsOf(db: Database.Database, table: string, schema = HISTORY_SCHEMA): string[] {
  const rows = db.pragma(`${schema}.table_info(${table})`) as { name: string }[];
  return rows.map((row) => row.name);
}

/**
 * Converts a history file of the run layout: each row standing for a run of buckets becomes one
 * row per bucket (the run's sections repeated; its lastAt is the one its buckets reported),
 * then the run column and the settled and late marks go. The next packing pass packs them.
 */
function upgradeRuns(db: Database.Database): void {
  for (const tier of TIERS) {
    const table = `${HISTORY_SCHEMA}.rollups_${tier}`;
    if (!columnsOf(db, `rollups_${tier}`).includes('run')) continue;
    db.exec(`
      WITH RECURSIVE expanded (${ROW_COLUMNS}, last) AS (
        SELECT ${ROW_COLUMNS}, bucket + run - 1 FROM ${table} WHERE run > 1
        UNION ALL
        SELECT series, bucket + 1, ask, bid, sales, last FROM expanded WHERE bucket < last
      )
      INSERT OR IGNORE INTO ${table} (${ROW_COLUMNS}) SELECT ${ROW_COLUMNS} FROM expanded;
      ALTER TABLE ${table} DROP COLUMN run;`);
  }
  const marks = columnsOf(db, 'fold_mark').filter((name) => /^(settled|late)_/.test(name));
  for (const mark of marks) db.exec(`ALTER TABLE ${HISTORY_SCHEMA}.fold_mark DROP COLUMN ${mark}`);
}

/**
 * Moves rows and pages of earlier layouts into the time-first tables: rollups kept in the
 * prices file before the split (copied in, then dropped), and tables of the history file keyed
 * series first (copied in key order into a new table, then dropped and the copy renamed in one
 * transaction). A crash after a copy copies again on the next open.
 */
function keyTimeFirst(db: Database.Database): void {
  for (const table of TIERS.flatMap((tier) => [`rollups_${tier}`, `pages_${tier}`])) {
    for (const schema of ['main', HISTORY_SCHEMA]) {
      const [first] = columnsOf(db, table, schema);
      if (schema === 'main' ? first === undefined : first !== 'series') continue;
      const kind = table.startsWith('pages') ? 'pages' : 'rollups';
      const [key, columns] = TABLES[kind];
      const [into, tier] = [schema === 'main' ? table : `time_first_${table}`, table.split('_')[1]];
      const frontier = `UPDATE ${HISTORY_SCHEMA}.fold_mark SET frontier_${tier} = max(frontier_${tier},
        (SELECT ifnull(max(bucket), -1) FROM ${HISTORY_SCHEMA}.${into}))`;
      db.transaction(() => {
        db.exec(create(kind, into));
        db.exec(`INSERT OR REPLACE INTO ${HISTORY_SCHEMA}.${into} (${columns})
          SELECT ${columns} FROM ${schema}.${table} ORDER BY ${key}, series`);
        if (kind === 'rollups') db.exec(frontier);
      })();
      const rename = `ALTER TABLE ${HISTORY_SCHEMA}.${into} RENAME TO ${table};`;
      db.exec(`BEGIN; DROP TABLE ${schema}.${table}; ${schema === 'main' ? '' : rename} COMMIT`);
    }
  }
}

/** Refuses a history file that folded journal ids this prices file never issued. */
function checkPairing(db: Database.Database, historyPath: string): void {
  const value = (sql: string) => db.prepare<[], number>(sql).pluck().get() ?? 0;
  const mark = value(`SELECT journal_id FROM ${HISTORY_SCHEMA}.fold_mark WHERE id = 1`);
  const issued = value("SELECT seq FROM main.sqlite_sequence WHERE name = 'rollup_journal'");
  if (mark > issued) {
    throw new Error(
      `${historyPath} has folded journal entries up to ${mark}, but its prices file has only ` +
        `issued ${issued}: the two files do not belong together`,
    );
  }
}

/** Attaches (creating or upgrading) the history file; call after the prices migrations. */
export function attachHistory(
  db: Database.Database,
  pricesPath: string,
  pragmas: { cacheKib: number; walSizeLimitBytes: number },
): void {
  const path = historyPathOf(pricesPath);
  db.prepare(`ATTACH DATABASE ? AS ${HISTORY_SCHEMA}`).run(path);
  db.pragma(`${HISTORY_SCHEMA}.journal_mode = WAL`);
  db.pragma(`${HISTORY_SCHEMA}.synchronous = NORMAL`);
  db.pragma(`${HISTORY_SCHEMA}.cache_size = -${pragmas.cacheKib}`);
  db.pragma(`${HISTORY_SCHEMA}.journal_size_limit = ${pragmas.walSizeLimitBytes}`);
  db.transaction(() => {
    db.exec(schema);
    upgradeRuns(db);
  })();
  keyTimeFirst(db);
  checkPairing(db, path);
}
