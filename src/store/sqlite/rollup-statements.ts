/**
 * The SQL of the history rollups, prepared once per connection: the series directory and the
 * journal (prices file), and per tier table (history file, history-file.ts) point reads and
 * upserts for the folder, range reads for the HistoryStore and the per-series deletes of the
 * retention pass, plus the fold mark.
 */
import type Database from 'better-sqlite3';
import { TIERS, type Tier } from '../../pricing/rollup-buckets.ts';
import { HISTORY_SCHEMA } from './history-file.ts';

export type StoredRow = [ask: Buffer | null, bid: Buffer | null, sales: Buffer | null];
type Section = 'ask' | 'bid' | 'sales';
/** Which sections a range row holds, as bits. */
export const SECTION_BITS: Readonly<Record<Section, number>> = { ask: 1, bid: 2, sales: 4 };
/** Bytes before each bucket's sections in a range read: bucket index (u32 BE), section bits. */
export const RANGE_HEADER_BYTES = 5;
export type UnitsRow = [bucket: number, units: number];
type Blob = Buffer | null;

function memoize<T>(make: (key: string) => T): (key: string) => T {
  const made = new Map<string, T>();
  return (key) => {
    let value = made.get(key);
    if (value === undefined) made.set(key, (value = make(key)));
    return value;
  };
}

function tierStatements(db: Database.Database, tier: Tier) {
  const table = `${HISTORY_SCHEMA}.rollups_${tier}`;
  return {
    selectRow: db
      .prepare<[number, number], StoredRow>(
        `SELECT ask, bid, sales FROM ${table} WHERE series = ? AND bucket = ?`,
      )
      .raw(),
    /** NULL sections leave the stored ones alone (a section, once there, is never removed). */
    upsertRow: db.prepare<[number, number, Blob, Blob, Blob, number | null]>(`
      INSERT INTO ${table} (series, bucket, ask, bid, sales, sale_units) VALUES (?, ?, ?, ?, ?, ?)
      ON CONFLICT (series, bucket) DO UPDATE SET ask = coalesce(excluded.ask, ask),
        bid = coalesce(excluded.bid, bid), sales = coalesce(excluded.sales, sales),
        sale_units = coalesce(excluded.sale_units, sale_units)`),
    /**
     * Range read of the given sections (a subset of ask, bid, sales) as ONE blob, oldest bucket
     * first: per bucket RANGE_HEADER_BYTES of header (the bucket index, 4 bytes big-endian, and
     * a byte with a SECTION_BITS bit per section present), then those sections' bytes back to
     * back. better-sqlite3 makes a fresh Buffer for every BLOB value it returns; at a few
     * thousand rows that cost more than the read itself, so the rows are concatenated in SQL.
     * The subquery walks the primary key in bucket order (a co-routine, no sort), and the
     * reader checks that the buckets ascend.
     */
    selectRange: memoize((columns: string) => {
      const sections = columns.split(',');
      const flags = sections.map(
        (name) => `(${name} IS NOT NULL) * ${SECTION_BITS[name as Section]}`,
      );
      const bytes = sections.map((name) => `ifnull(${name}, x'')`);
      return db
        .prepare<[number, number, number], Buffer | null>(
          `SELECT CAST(group_concat(piece, '') AS BLOB) FROM (
             SELECT unhex(printf('%08X%02X', bucket, ${flags.join(' + ')})) || ${bytes.join(' || ')} AS piece
             FROM ${table} WHERE series = ? AND bucket >= ? AND bucket < ? ORDER BY bucket)`,
        )
        .pluck();
    }),
    selectUnits: db
      .prepare<[number, number, number], UnitsRow>(
        `SELECT bucket, sale_units FROM ${table}
         WHERE series = ? AND bucket >= ? AND bucket < ? AND sale_units IS NOT NULL
         ORDER BY bucket`,
      )
      .raw(),
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
    /** Raises the frontiers (10m, 1h, 1d) to the given buckets where these are higher. */
    raiseFrontiers: db.prepare<[number, number, number]>(
      `UPDATE ${HISTORY_SCHEMA}.fold_mark SET
         ${TIERS.map((tier) => `frontier_${tier} = max(frontier_${tier}, ?)`).join(', ')}
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
    seriesFrom: db
      .prepare<[number, number], [number]>(
        'SELECT id FROM history_series WHERE id >= ? ORDER BY id LIMIT ?',
      )
      .raw(),
  };
}

export type RollupStatements = ReturnType<typeof prepareRollupStatements>;
