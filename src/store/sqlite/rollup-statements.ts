/**
 * The SQL of the history rollups, prepared once per connection: the series directory (prices
 * file), the fold marks and per tier (history-file.ts) the loose rows and the pages.
 */
import type Database from 'better-sqlite3';
import { TIERS, type Tier } from '../../pricing/rollup-buckets.ts';
import { createTable, HISTORY_SCHEMA } from './history-file.ts';
import { PAGE_BUCKETS, SECTION_BITS, type PageEntry, type Sections } from './page-format.ts';

/** Bytes before each row's sections in a range read: bucket (u32 BE), SECTION_BITS byte. */
export const RANGE_HEADER_BYTES = 5;
/** The byte after the bucket of a chunk's piece (rollup-chunks.ts), then length (u32 BE), chunk. */
export const CHUNK_PIECE = 128;

/** `table`'s lowest to highest key in [@from, @to) to seek (a bucket -1 marker adds none). */
export const keysOf = (table: string, key: string) => `WITH RECURSIVE
  r (lo, hi) AS (SELECT (SELECT min(${key}) FROM ${table} WHERE ${key} >= @from),
    (SELECT max(${key}) FROM ${table} WHERE ${key} < @to) + 1),
  b (k) AS (SELECT lo FROM r WHERE lo < hi UNION ALL SELECT k + 1 FROM b, r WHERE k + 1 < hi)`;
export type KeyRange = { series: number; from: number; to: number };
export type SeriesRange = KeyRange & { last: number };

/**
 * Range read of some sections as ONE blob (docs/history-storage.md, "SQLite layout"): per bucket
 * the series' row, or else its chunk's (@chunk); the reader checks that the buckets ascend.
 */
function rangeStatement(db: Database.Database, table: string) {
  const prepare = (columns: string) => {
    const sections = columns.split(',') as (keyof typeof SECTION_BITS)[];
    const flags = sections.map((name) => `(${name} IS NOT NULL) * ${SECTION_BITS[name]}`);
    const bytes = sections.map((name) => `ifnull(${name}, x'')`);
    return db
      .prepare<[KeyRange & { chunk: number }], Buffer | null>(
        `${keysOf(table, 'bucket')} SELECT CAST(group_concat(piece, '') AS BLOB) FROM (
           SELECT coalesce((SELECT unhex(printf('%08X%02X', k, ${flags.join(' + ')}))
             || ${bytes.join(' || ')} FROM ${table} WHERE bucket = k AND series = @series),
           (SELECT unhex(printf('%08X%02X%08X', k, ${CHUNK_PIECE}, length(ask))) || ask
             FROM ${table} WHERE bucket = k AND series = @chunk)) AS piece FROM b)`,
      )
      .pluck();
  };
  const prepared = new Map<string, ReturnType<typeof prepare>>();
  return (columns: string) =>
    prepared.get(columns) ?? prepared.set(columns, prepare(columns)).get(columns)!;
}

/** A time-first table's oldest entries below a key (binds it and a limit) with their page or
 * ask, and the delete of every entry up to one (binds its key and series). */
function oldest<Row extends unknown[]>(db: Database.Database, table: string, key: string) {
  const data = key === 'period' ? 'data' : 'ask';
  const where = `FROM ${table} WHERE ${key} < ? ORDER BY ${key}, series LIMIT ?`;
  return {
    before: db.prepare<[number, number], Row>(`SELECT ${key}, series, ${data} ${where}`).raw(),
    through: db.prepare<[number, number]>(`DELETE FROM ${table} WHERE (${key}, series) <= (?, ?)`),
  };
}

function tierStatements(db: Database.Database, tier: Tier) {
  const table = `${HISTORY_SCHEMA}.pages_${tier}`;
  return {
    loose: looseTables(db, tier),
    /** The pages of periods in [@from, @to), oldest first. */
    selectPages: db.prepare<[KeyRange], { period: number; data: Buffer }>(
      `${keysOf(table, 'period')} SELECT period, data FROM b CROSS JOIN ${table}
       ON period = k AND series = @series`,
    ),
    /** Replaces a page packed before (a pass that died before its period's rows were dropped). */
    insertPage: db.prepare<[number, number, Buffer]>(
      `INSERT OR REPLACE INTO ${table} (series, period, data) VALUES (?, ?, ?)`,
    ),
    deletePage: db.prepare<[number, number]>(
      `DELETE FROM ${table} WHERE series = ? AND period = ?`,
    ),
    pagedTo: db.prepare<[], number>(`SELECT ifnull(max(period), -1) + 1 FROM ${table}`).pluck(),
    expiredPages: oldest<[period: number, series: number, data: Buffer]>(db, table, 'period'),
  };
}

function rowStatements(db: Database.Database, table: string) {
  return {
    /** NULL sections leave the stored ones alone (a section, once there, is never removed). */
    upsertRow: db.prepare<[series: number, ...PageEntry]>(`
      INSERT INTO ${table} (series, bucket, ask, bid, sales) VALUES (?, ?, ?, ?, ?)
      ON CONFLICT (bucket, series) DO UPDATE SET ask = coalesce(excluded.ask, ask),
        bid = coalesce(excluded.bid, bid), sales = coalesce(excluded.sales, sales)`),
    selectRange: rangeStatement(db, table),
    selectRow: db
      .prepare<[number, number], Sections>(
        `SELECT ask, bid, sales FROM ${table} WHERE series = ? AND bucket = ?`,
      )
      .raw(),
    /** The rows of series [@series, @last) in buckets [@from, @to), by series then bucket. */
    selectSeriesRange: db
      .prepare<[SeriesRange], [number, ...PageEntry]>(
        `${keysOf(table, 'bucket')} SELECT series, bucket, ask, bid, sales FROM b CROSS JOIN ${table}
         ON bucket = k AND series >= @series AND series < @last ORDER BY series, bucket`,
      )
      .raw(),
    expiredRows: oldest<[bucket: number, series: number, ask: Buffer | null]>(db, table, 'bucket'),
  };
}

/**
 * A tier's loose tables: its periods, oldest first (listed again once the schema changed), and
 * the statements of a bucket's period's table (created when `create`).
 */
function looseTables(db: Database.Database, tier: Tier) {
  const prefix = `rollups_${tier}_`;
  const version = db.prepare<[], number>(`PRAGMA ${HISTORY_SCHEMA}.schema_version`).pluck();
  const list = db.prepare<[], number>(`SELECT CAST(substr(name, ${prefix.length + 1}) AS INTEGER)
    FROM ${HISTORY_SCHEMA}.sqlite_schema WHERE name GLOB '${prefix}*' ORDER BY 1`);
  const tables = new Map<number, ReturnType<typeof rowStatements>>();
  let [seen, periods] = [-1, [] as number[]];
  const loose = {
    periods(): readonly number[] {
      if (version.get() === seen) return periods;
      [seen, periods] = [version.get()!, list.pluck().all()];
      for (const period of tables.keys()) if (!periods.includes(period)) tables.delete(period);
      return periods;
    },
    of(bucket: number, create = false) {
      const period = Math.floor(bucket / PAGE_BUCKETS[tier]);
      if (tables.has(period) || !(create || periods.includes(period))) return tables.get(period);
      if (create) db.exec(createTable('rollups', prefix + period));
      tables.set(period, rowStatements(db, `${HISTORY_SCHEMA}.${prefix}${period}`));
      return (loose.periods(), tables.get(period));
    },
    drop: (period: number) =>
      void (tables.delete(period), db.exec(`DROP TABLE ${HISTORY_SCHEMA}.${prefix}${period}`)),
  };
  return loose;
}

export type TierStatements = ReturnType<typeof tierStatements>;
type Mark = [segment: string, offset: number, deferred: number | null];

export function prepareRollupStatements(db: Database.Database) {
  const [tenMinutes, hours, days] = TIERS.map((tier) => tierStatements(db, tier));
  const tiers: Record<Tier, TierStatements> = { '10m': tenMinutes!, '1h': hours!, '1d': days! };
  const lock = db.prepare(`UPDATE ${HISTORY_SCHEMA}.fold_mark SET journal_id = journal_id`);
  const marks = `${HISTORY_SCHEMA}.journal_marks`;
  const expired = `${HISTORY_SCHEMA}.expired`;
  return {
    tiers,
    findSeries: db.prepare<[string, string, string], { id: number }>(
      'SELECT id FROM history_series WHERE game = ? AND item_id = ? AND market = ?',
    ),
    insertSeries: db.prepare<[string, string, string]>(
      'INSERT INTO history_series (game, item_id, market) VALUES (?, ?, ?)',
    ),
    aggregateOf: db.prepare<[number], { id: number }>(
      `SELECT a.id FROM history_series s JOIN history_series a
       ON (a.game, a.item_id, a.market) = (s.game, s.item_id, '') WHERE s.id = ?`,
    ),
    seriesMarkets: db.prepare<[string, string], { market: string }>(
      "SELECT market FROM history_series WHERE game = ? AND item_id = ? AND market <> ''",
    ),
    /** Per journal segment (journal-segments.ts), the bytes folded and the first period deferred. */
    readMarks: db.prepare<[], Mark>(`SELECT * FROM ${marks}`).raw(),
    markSegment: db.prepare<Mark>(`REPLACE INTO ${marks} VALUES (?, ?, ?)`),
    dropMark: db.prepare<[string]>(`DELETE FROM ${marks} WHERE segment = ?`),
    readFrontiers: db.prepare<[], Record<Tier, number>>(
      `SELECT ${TIERS.map((tier) => `frontier_${tier} AS "${tier}"`).join(', ')}
       FROM ${HISTORY_SCHEMA}.fold_mark WHERE id = 1`,
    ),
    /** Binds per tier the highest bucket written: each only rises. */
    markFolded: db.prepare<number[]>(
      `UPDATE ${HISTORY_SCHEMA}.fold_mark SET
         ${TIERS.map((tier) => `frontier_${tier} = max(frontier_${tier}, ?)`).join(', ')}
       WHERE id = 1`,
    ),
    /** First in a write transaction: the history file's write lock, then the loose tables. */
    lockHistory: () => {
      lock.run();
      for (const tier of TIERS) tiers[tier].loose.periods();
    },
    readExpired: db.prepare<[Tier], number>(`SELECT bucket FROM ${expired} WHERE tier = ?`).pluck(),
    raiseExpired: db.prepare<[Tier, number]>(
      `INSERT INTO ${expired} (tier, bucket) VALUES (?, ?)
       ON CONFLICT (tier) DO UPDATE SET bucket = max(bucket, excluded.bucket)`,
    ),
    lastSeries: db.prepare<[], number>('SELECT ifnull(max(id), 0) FROM history_series').pluck(),
  };
}

export type RollupStatements = ReturnType<typeof prepareRollupStatements>;
