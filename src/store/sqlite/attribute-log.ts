/**
 * The durable half of the open attribute buckets (issue 31, migration 13): a change log of the
 * observations each call recorded, and a snapshot of the rows held in memory
 * (attribute-open-rows.ts) that includes the log up to its `through`. A tier's held rows are
 * written to `attribute_rollups` once, when the latest observation is `CLOSE_GRACE` past their
 * bucket's end, with the tier's mark, in the recording call's transaction. When the hourly tier
 * closes, the held rows of every tier are snapshotted and the log they include deleted but its
 * last entry (ids are never reused while one is left, without AUTOINCREMENT's sequence row to
 * write each call), so a connection replays at most the snapshot and about an hour of log. Any connection catches up
 * by log id before it reads or writes; a snapshot past what it has seen replaces its memory.
 */
import type Database from 'better-sqlite3';
import { MINUTE } from '../../domain/clock.ts';
import { TIERS, type Tier } from '../../pricing/rollup-buckets.ts';
import type { BucketObservation, BucketRollup } from '../bucket-history.ts';
import { rollupOf } from '../bucket-history.ts';
import {
  closingMarks,
  decodeHeld,
  decodeObservations,
  encodeHeld,
  encodeObservations,
  OpenBuckets,
} from './attribute-open-rows.ts';

export const SQLITE_ATTRIBUTE_LOG_SCHEMA = `
CREATE TABLE attribute_log (
  id INTEGER PRIMARY KEY,
  entries BLOB NOT NULL
) STRICT;
CREATE TABLE attribute_marks (
  tier TEXT PRIMARY KEY,
  open_from INTEGER NOT NULL
) STRICT, WITHOUT ROWID;
CREATE TABLE attribute_held (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  through INTEGER NOT NULL,
  rows BLOB NOT NULL
) STRICT;
`;

/** How far past a bucket's end the latest observation must be before the bucket is written. */
export const CLOSE_GRACE = 10 * MINUTE;

function prepareLog(db: Database.Database) {
  return {
    append: db.prepare<[Buffer]>('INSERT INTO attribute_log (entries) VALUES (?)'),
    logAfter: db
      .prepare<[number], [number, Buffer]>(
        'SELECT id, entries FROM attribute_log WHERE id > ? ORDER BY id',
      )
      .raw(),
    dropLogBefore: db.prepare<[number]>('DELETE FROM attribute_log WHERE id < ?'),
    marks: db.prepare<[], [Tier, number]>('SELECT tier, open_from FROM attribute_marks').raw(),
    putMark: db.prepare<[Tier, number]>(
      'INSERT OR REPLACE INTO attribute_marks (tier, open_from) VALUES (?, ?)',
    ),
    heldThrough: db.prepare<[], [number]>('SELECT through FROM attribute_held').raw(),
    heldRows: db.prepare<[], [Buffer]>('SELECT rows FROM attribute_held').raw(),
    putHeld: db.prepare<[number, Buffer]>(
      'INSERT OR REPLACE INTO attribute_held (id, through, rows) VALUES (1, ?, ?)',
    ),
  };
}

/** Writes one row of a tier into `attribute_rollups`, merging with a row already there. */
export type StoreRow = (row: BucketRollup, tier: Tier) => void;

export class AttributeLog {
  private readonly s: ReturnType<typeof prepareLog>;
  private open = new OpenBuckets();

  constructor(
    db: Database.Database,
    private readonly store: StoreRow,
  ) {
    this.s = prepareLog(db);
  }

  /** In a transaction: takes in the snapshot, marks and log others wrote since. */
  catchUp(): void {
    const [through] = this.s.heldThrough.get() ?? [0];
    if (this.open.knownId < through) {
      this.open = new OpenBuckets();
      for (const [tier, row] of decodeHeld(this.s.heldRows.get()![0])) this.open.hold(tier, row);
      this.open.knownId = through;
    }
    const marks = { ...this.open.marks };
    for (const [tier, from] of this.s.marks.iterate()) marks[tier] = from;
    this.open.advance(marks);
    for (const [id, blob] of this.s.logAfter.iterate(this.open.knownId)) {
      for (const observation of decodeObservations(blob)) this.open.merge(observation);
      this.open.knownId = id;
    }
  }

  /** In a transaction, caught up: logs and holds the call; closes and snapshots what is due. */
  record(observations: readonly BucketObservation[]): void {
    for (const observation of observations) {
      for (const tier of this.open.merge(observation))
        this.store(rollupOf(observation, tier), tier);
    }
    const id = this.s.append.run(encodeObservations(observations)).lastInsertRowid;
    this.open.knownId = Number(id);
    const marks = closingMarks(this.open.latest, CLOSE_GRACE);
    const hourClosed = this.close('1h', marks['1h']);
    for (const tier of TIERS) this.close(tier, marks[tier]);
    if (!hourClosed) return;
    this.s.putHeld.run(this.open.knownId, encodeHeld(this.open.rows()));
    this.s.dropLogBefore.run(this.open.knownId);
  }

  /** Writes the tier's held rows of buckets before `boundary` and its mark; whether any moved. */
  close(tier: Tier, boundary: number): boolean {
    if (boundary <= this.open.marks[tier]) return false;
    for (const row of this.open.closeBefore(tier, boundary)) this.store(row, tier);
    this.s.putMark.run(tier, boundary);
    return true;
  }

  find(bucketId: string, tier: Tier, first: number, to: number): BucketRollup[] {
    return this.open.find(bucketId, tier, first, to);
  }

  /** The transaction failed: memory is rebuilt from the tables next time. */
  reset(): void {
    this.open = new OpenBuckets();
  }
}
