/**
 * The SQL of the history rollups, prepared once per connection: the series directory and the
 * journal (prices file), and per tier table (history file, history-file.ts) point reads and
 * upserts for the folder, range reads for the HistoryStore and the per-series deletes of the
 * retention pass, plus the fold mark.
 */
import type Database from 'better-sqlite3';
import { TIERS, type Tier } from '../../pricing/rollup-buckets.ts';
import { HISTORY_SCHEMA, NO_LATE_WRITE } from './history-file.ts';

type Section = 'ask' | 'bid' | 'sales';
/** Which sections a range row holds, as bits. */
export const SECTION_BITS: Readonly<Record<Section, number>> = { ask: 1, bid: 2, sales: 4 };
/** Bytes before each row's sections in a range read: bucket and run (u32 BE), section bits. */
export const RANGE_HEADER_BYTES = 9;
export type UnitsRow = [bucket: number, run: number, units: number];
type Blob = Buffer | null;

function memoize<T>(make: (key: string) => T): (key: string) => T {
  const made = new Map<string, T>();
  return (key) => {
    let value = made.get(key);
    if (value === undefined) made.set(key, (value = make(key)));
    return value;
  };
}

/** A stored row with the buckets it covers: [bucket, run, ask, bid, sales, sale_units]. */
export type RunRow = [
  bucket: number,
  run: number,
  ask: Buffer | null,
  bid: Buffer | null,
  sales: Buffer | null,
  units: number | null,
];

/**
 * The start of the series' last row before `bucket` (the one that may run into it), else
 * `bucket`; binds (series, bucket, bucket).
 */
const runStartBefore = (table: string) =>
  `ifnull((SELECT bucket FROM ${table} WHERE series = ? AND bucket < ? ORDER BY bucket DESC LIMIT 1), ?)`;

function rangeStatements(db: Database.Database, table: string) {
  return {
    /**
     * Range read of the given sections (a subset of ask, bid, sales) as ONE blob, oldest bucket
     * first: per row RANGE_HEADER_BYTES of header (its first bucket and its run, 4 bytes
     * big-endian each, and a byte with a SECTION_BITS bit per section present), then those
     * sections' bytes back to back. Rows overlap [from, to): the row before `from` is included
     * when its run reaches in. better-sqlite3 makes a fresh Buffer for every BLOB value it
     * returns; at a few thousand rows that cost more than the read itself, so the rows are
     * concatenated in SQL. The subquery walks the primary key in bucket order (a co-routine,
     * no sort), and the reader checks that the buckets ascend.
     * Binds (series, series, from, from, to, from).
     */
    selectRange: memoize((columns: string) => {
      const sections = columns.split(',');
      const flags = sections.map(
        (name) => `(${name} IS NOT NULL) * ${SECTION_BITS[name as Section]}`,
      );
      const bytes = sections.map((name) => `ifnull(${name}, x'')`);
      return db
        .prepare<[number, number, number, number, number, number], Buffer | null>(
          `SELECT CAST(group_concat(piece, '') AS BLOB) FROM (
             SELECT unhex(printf('%08X%08X%02X', bucket, run, ${flags.join(' + ')}))
               || ${bytes.join(' || ')} AS piece
             FROM ${table} WHERE series = ? AND bucket >= ${runStartBefore(table)}
               AND bucket < ? AND bucket + run > ? ORDER BY bucket)`,
        )
        .pluck();
    }),
    /** Binds (series, series, from, from, to, from): rows with sales overlapping [from, to). */
    selectUnits: db
      .prepare<[number, number, number, number, number, number], UnitsRow>(
        `SELECT bucket, run, sale_units FROM ${table}
         WHERE series = ? AND bucket >= ${runStartBefore(table)} AND bucket < ?
           AND bucket + run > ? AND sale_units IS NOT NULL
         ORDER BY bucket`,
      )
      .raw(),
  };
}

function runStatements(db: Database.Database, table: string) {
  return {
    /** The row holding `bucket` if any: the series' last row starting at or before it. */
    selectCovering: db
      .prepare<[number, number], RunRow>(
        `SELECT bucket, run, ask, bid, sales, sale_units FROM ${table}
         WHERE series = ? AND bucket <= ? ORDER BY bucket DESC LIMIT 1`,
      )
      .raw(),
    /** Binds (series, series, from, from, before, limit): rows from the one running into `from`. */
    selectRuns: db
      .prepare<[number, number, number, number, number, number], RunRow>(
        `SELECT bucket, run, ask, bid, sales, sale_units FROM ${table}
         WHERE series = ? AND bucket >= ${runStartBefore(table)} AND bucket < ?
         ORDER BY bucket LIMIT ?`,
      )
      .raw(),
    insertRun: db.prepare<[number, number, Blob, Blob, Blob, number | null, number]>(
      `INSERT INTO ${table} (series, bucket, ask, bid, sales, sale_units, run)
       VALUES (?, ?, ?, ?, ?, ?, ?)`,
    ),
    /** Binds (run, ask, bid, series, bucket). */
    setRun: db.prepare<[number, Blob, Blob, number, number]>(
      `UPDATE ${table} SET run = ?, ask = ?, bid = ? WHERE series = ? AND bucket = ?`,
    ),
    /** Binds (run, series, bucket). */
    shortenRun: db.prepare<[number, number, number]>(
      `UPDATE ${table} SET run = ? WHERE series = ? AND bucket = ?`,
    ),
    /** Binds (series, after, before): the rows strictly between two buckets. */
    deleteBetween: db.prepare<[number, number, number]>(
      `DELETE FROM ${table} WHERE series = ? AND bucket > ? AND bucket < ?`,
    ),
    /**
     * A run that starts before `cutoff` and reaches past it keeps only its buckets from
     * `cutoff` on. Binds (cutoff, cutoff, series, series, cutoff, cutoff).
     */
    trimRunAcross: db.prepare<[number, number, number, number, number, number]>(
      `UPDATE ${table} SET run = bucket + run - ?, bucket = ?
       WHERE series = ? AND bucket = (SELECT bucket FROM ${table} WHERE series = ? AND bucket < ?
         ORDER BY bucket DESC LIMIT 1) AND bucket + run > ?`,
    ),
  };
}

function tierStatements(db: Database.Database, tier: Tier) {
  const table = `${HISTORY_SCHEMA}.rollups_${tier}`;
  return {
    /** NULL sections leave the stored ones alone (a section, once there, is never removed). */
    upsertRow: db.prepare<[number, number, Blob, Blob, Blob, number | null]>(`
      INSERT INTO ${table} (series, bucket, ask, bid, sales, sale_units) VALUES (?, ?, ?, ?, ?, ?)
      ON CONFLICT (series, bucket) DO UPDATE SET ask = coalesce(excluded.ask, ask),
        bid = coalesce(excluded.bid, bid), sales = coalesce(excluded.sales, sales),
        sale_units = coalesce(excluded.sale_units, sale_units)`),
    ...rangeStatements(db, table),
    ...runStatements(db, table),
    /** The bucket at 0-based position `offset` among a series' expired buckets, if any. */
    expiredAt: db.prepare<[number, number, number], { bucket: number }>(
      `SELECT bucket FROM ${table} WHERE series = ? AND bucket < ? ORDER BY bucket LIMIT 1 OFFSET ?`,
    ),
    deleteBefore: db.prepare<[number, number]>(
      `DELETE FROM ${table} WHERE series = ? AND bucket < ?`,
    ),
  };
}

export type TierStatements = ReturnType<typeof tierStatements>;

export function prepareRollupStatements(db: Database.Database) {
  const tiers = Object.fromEntries(TIERS.map((tier) => [tier, tierStatements(db, tier)])) as Record<
    Tier,
    TierStatements
  >;
  return {
    tiers,
    findSeries: db.prepare<[string, string, string], { id: number }>(
      'SELECT id FROM history_series WHERE game = ? AND item_id = ? AND market = ?',
    ),
    insertSeries: db.prepare<[string, string, string]>(
      'INSERT INTO history_series (game, item_id, market) VALUES (?, ?, ?)',
    ),
    seriesMarkets: db
      .prepare<[string, string], [string]>(
        "SELECT market FROM history_series WHERE game = ? AND item_id = ? AND market <> ''",
      )
      .raw(),
    insertJournal: db.prepare<[Buffer]>('INSERT INTO rollup_journal (entries) VALUES (?)'),
    journalAfter: db
      .prepare<[number], [id: number, entries: Buffer]>(
        'SELECT id, entries FROM rollup_journal WHERE id > ? ORDER BY id',
      )
      .raw(),
    deleteJournalThrough: db.prepare<[number]>('DELETE FROM rollup_journal WHERE id <= ?'),
    readMark: db
      .prepare<[], number>(`SELECT journal_id FROM ${HISTORY_SCHEMA}.fold_mark WHERE id = 1`)
      .pluck(),
    readFrontiers: db
      .prepare<[], [number, number, number]>(
        `SELECT ${TIERS.map((tier) => `frontier_${tier}`).join(', ')}
         FROM ${HISTORY_SCHEMA}.fold_mark WHERE id = 1`,
      )
      .raw(),
    /**
     * After a fold, per tier (10m, 1h, 1d): raises the frontier to the highest bucket written,
     * and lowers the settled and late marks to the lowest (the next run pass looks again).
     */
    foldedBuckets: db.prepare<number[]>(
      `UPDATE ${HISTORY_SCHEMA}.fold_mark SET
         ${TIERS.map((tier) => `frontier_${tier} = max(frontier_${tier}, ?)`).join(', ')},
         ${TIERS.map((tier) => `settled_${tier} = min(settled_${tier}, ?)`).join(', ')},
         ${TIERS.map((tier) => `late_${tier} = min(late_${tier}, ?)`).join(', ')}
       WHERE id = 1`,
    ),
    /** Moves the mark from the second id to the first; 0 changes when it was not there. */
    advanceMark: db.prepare<[number, number]>(
      `UPDATE ${HISTORY_SCHEMA}.fold_mark SET journal_id = ? WHERE id = 1 AND journal_id = ?`,
    ),
    /**
     * A write that changes nothing: as a transaction's first statement it takes the history
     * file's write lock before anything is read (a read first could not upgrade once another
     * connection had written).
     */
    lockHistory: db.prepare(
      `UPDATE ${HISTORY_SCHEMA}.fold_mark SET journal_id = journal_id WHERE id = 1`,
    ),
    readSettled: db
      .prepare<[], [number, number, number]>(
        `SELECT ${TIERS.map((tier) => `settled_${tier}`).join(', ')}
         FROM ${HISTORY_SCHEMA}.fold_mark WHERE id = 1`,
      )
      .raw(),
    /** A run pass of the tier starts: no fold has written since. */
    startRunPass: memoize((tier) =>
      db.prepare(
        `UPDATE ${HISTORY_SCHEMA}.fold_mark SET late_${tier} = ${NO_LATE_WRITE} WHERE id = 1`,
      ),
    ),
    /**
     * A run pass of the tier up to the given bucket is complete: every bucket below the
     * settled mark has been looked at for runs, except what folds wrote since the pass began.
     */
    finishRunPass: memoize((tier) =>
      db.prepare<[number]>(
        `UPDATE ${HISTORY_SCHEMA}.fold_mark
         SET settled_${tier} = min(max(settled_${tier}, ?), late_${tier}), late_${tier} = ${NO_LATE_WRITE}
         WHERE id = 1`,
      ),
    ),
    seriesFrom: db
      .prepare<[number, number], [number]>(
        'SELECT id FROM history_series WHERE id >= ? ORDER BY id LIMIT ?',
      )
      .raw(),
  };
}

export type RollupStatements = ReturnType<typeof prepareRollupStatements>;
