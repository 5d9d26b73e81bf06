/**
 * Compact snapshots of the SQLite latest sides. Once the log appended since the current
 * snapshot holds at least as many bytes as the snapshot (and at least `minBytes`), the writer
 * builds the next generation: it fixes the last log id X it will include, then per (game,
 * market) merges the current parts with the log up to X into new parts of PART_ENTRIES sides,
 * a few parts per step, one short transaction per step, yielding to the event loop between
 * steps. One transaction then makes the new generation current together with X (the log up to
 * X is from then on ignored by every read); later steps delete the old parts and that log. A
 * kill at any point leaves either the old generation with the whole log or the new one with
 * the log after X; parts of an unfinished generation and log already folded into the current
 * one are deleted by the next snapshot's first steps.
 *
 * Bounds: bytes written by the sides path are at most the log twice over (the log, then the
 * snapshot it triggers, each no larger than the other), and a restart after a kill replays at
 * most as much log as snapshot; after a clean close, none (close() snapshots the whole log).
 */
import type Database from 'better-sqlite3';
import { decodeEntries, encodeEntries, type SideEntry } from './side-codec.ts';
import {
  keepLatest,
  logSeq,
  newer,
  readSideState,
  type SideChunk,
  type SideState,
  type SideStatements,
} from './side-tables.ts';

/** Sides per snapshot part (about 60 KB raw, 30 KB stored). */
export const PART_ENTRIES = 2048;
/** Parts written per step: a step stays well under 20 ms of the ingest thread. */
const PARTS_PER_STEP = 1;
/**
 * Log bytes read per step (about 5,000 sides). A log row is one batch's sides of one market and
 * is read whole, so a step holding a bulk batch (a first fill) takes as long as its decode.
 */
const LOG_BYTES_PER_STEP = 64 * 1024;
/** Rows of stale parts or folded log deleted per step. */
const DELETES_PER_STEP = 64;
/** The default floor on the log before a snapshot is taken. */
export const SNAPSHOT_MIN_BYTES = 1024 * 1024;

export interface SideSnapshotOptions {
  /** The log must hold at least this many bytes before a snapshot (default 1 MiB). */
  minBytes?: number;
  /** Called after each step with its name and duration (diagnostics and the crash tests). */
  onStep?: (step: string, ms: number) => void;
  onError: (message: string) => void;
}

function prepareSnapshotStatements(db: Database.Database) {
  return {
    insertPart: db.prepare<[number, string, string, number, Buffer]>(
      'INSERT INTO side_parts (generation, game, market, part, entries) VALUES (?, ?, ?, ?, ?)',
    ),
    chunkLogRow: db
      .prepare<[string, string, number, number], [number, Buffer]>(
        `SELECT id, entries FROM side_log WHERE game = ? AND market = ? AND id > ? AND id <= ?
         ORDER BY id LIMIT 1`,
      )
      .raw(),
    chunkPart: db
      .prepare<[number, string, string, number], [Buffer]>(
        'SELECT entries FROM side_parts WHERE generation = ? AND game = ? AND market = ? AND part = ?',
      )
      .raw(),
    chunks: db
      .prepare<[number, number, number], [SideChunk['game'], SideChunk['market']]>(
        `SELECT game, market FROM side_parts WHERE generation = ?
         UNION SELECT game, market FROM side_log WHERE id > ? AND id <= ?`,
      )
      .raw(),
    deleteStaleParts: db.prepare<[number, number]>(
      `DELETE FROM side_parts WHERE rowid IN
         (SELECT rowid FROM side_parts WHERE generation != ? LIMIT ?)`,
    ),
    deleteFoldedLog: db.prepare<[number, number]>(
      `DELETE FROM side_log WHERE id IN (SELECT id FROM side_log WHERE id <= ? ORDER BY id LIMIT ?)`,
    ),
    partBytes: db
      .prepare<[number], [number]>(
        'SELECT total(length(entries)) FROM side_parts WHERE generation = ?',
      )
      .raw(),
    logBytes: db
      .prepare<[number], [number]>('SELECT total(length(entries)) FROM side_log WHERE id > ?')
      .raw(),
  };
}

type SnapshotStatements = ReturnType<typeof prepareSnapshotStatements>;

export class SideSnapshots {
  private readonly own: SnapshotStatements;
  private snapshotBytes = -1;
  private logBytes = 0;
  private running: Generator<string> | null = null;
  private timer: NodeJS.Immediate | null = null;
  private closed = false;

  constructor(
    private readonly db: Database.Database,
    private readonly s: SideStatements,
    private readonly options: SideSnapshotOptions,
  ) {
    this.own = prepareSnapshotStatements(db);
  }

  /** A batch committed `bytes` of log: starts a snapshot if the log has outgrown the bound. */
  appended(bytes: number): void {
    if (bytes === 0) return;
    if (this.snapshotBytes < 0) this.measure();
    else this.logBytes += bytes;
    if (this.running === null && this.due()) this.start();
  }

  /** Runs a started snapshot to its end now (tests, close of a bulk import). */
  finish(): void {
    while (this.running !== null) this.step();
  }

  /** Starts a snapshot now, due or not, and runs it to the end. */
  takeNow(): void {
    if (this.running === null) this.running = this.generation();
    this.finish();
  }

  /**
   * A store that wrote sides ends with a snapshot of everything its log holds, so that a restart
   * after a clean stop reads compact parts only; a store that only read leaves the tables alone.
   */
  close(): void {
    if (this.closed) return;
    if (this.timer !== null) clearImmediate(this.timer);
    this.timer = null;
    if (this.snapshotBytes >= 0) this.compactAll();
    this.closed = true;
    this.running = null;
  }

  private compactAll(): void {
    this.finish();
    this.measure();
    if (this.logBytes > 0) this.takeNow();
  }

  private due(): boolean {
    return (
      this.logBytes >= Math.max(this.snapshotBytes, this.options.minBytes ?? SNAPSHOT_MIN_BYTES)
    );
  }

  private measure(): void {
    const state = readSideState(this.s);
    this.snapshotBytes = this.own.partBytes.get(state.generation)?.[0] ?? 0;
    this.logBytes = this.own.logBytes.get(state.logThrough)?.[0] ?? 0;
  }

  private start(): void {
    this.running = this.generation();
    this.timer = setImmediate(() => this.stepLater());
  }

  private stepLater(): void {
    this.timer = null;
    if (this.closed || this.running === null) return;
    this.step();
    if (this.running !== null) this.timer = setImmediate(() => this.stepLater());
  }

  private step(): void {
    const running = this.running;
    if (running === null) return;
    try {
      const started = performance.now();
      const next = this.db.transaction(() => running.next())();
      if (next.done) this.running = null;
      else this.options.onStep?.(next.value, performance.now() - started);
    } catch (error) {
      this.running = null;
      this.options.onError(`side snapshot failed: ${(error as Error).message}`);
    }
  }

  /** The steps of one snapshot; each `yield` ends a transaction. */
  private *generation(): Generator<string> {
    const from = readSideState(this.s);
    yield* this.deleteStale(from);
    const through = logSeq(this.s);
    const next = from.generation + 1;
    let bytes = 0;
    for (const [game, market] of this.own.chunks.all(from.generation, from.logThrough, through)) {
      const chunk = { game, market };
      for (const blob of this.chunkParts(chunk, from, through)) {
        if (blob === null) {
          yield 'log';
          continue;
        }
        this.own.insertPart.run(next, game, market, blob.part, blob.entries);
        bytes += blob.entries.length;
        if ((blob.part + 1) % PARTS_PER_STEP === 0) yield 'part';
      }
      yield 'chunk';
    }
    const now = readSideState(this.s);
    if (now.generation !== from.generation || now.logThrough !== from.logThrough) return;
    this.s.setState.run(next, through);
    this.snapshotBytes = bytes;
    this.logBytes = this.own.logBytes.get(through)?.[0] ?? 0;
    yield 'switch';
    yield* this.deleteStale({ generation: next, logThrough: through });
  }

  /**
   * The chunk's next-generation parts: its log up to `through` (LOG_ROWS_PER_STEP rows a step),
   * then its current parts one by one with the log's newer entries, then the keys only the log has.
   */
  private *chunkParts(
    chunk: SideChunk,
    from: SideState,
    through: number,
  ): Generator<{ part: number; entries: Buffer } | null> {
    const logged = new Map<number, SideEntry>();
    let after = from.logThrough;
    let bytes = 0;
    for (;;) {
      const row = this.own.chunkLogRow.get(chunk.game, chunk.market, after, through);
      if (row === undefined) break;
      for (const entry of decodeEntries(row[1])) keepLatest(logged, entry);
      after = row[0];
      bytes += row[1].length;
      if (bytes < LOG_BYTES_PER_STEP) continue;
      bytes = 0;
      yield null;
    }
    let part = 0;
    for (;;) {
      const blob = this.own.chunkPart.get(from.generation, chunk.game, chunk.market, part)?.[0];
      if (blob === undefined) break;
      const entries = decodeEntries(blob).map((entry) => newer(entry, logged));
      yield { part: part++, entries: encodeEntries(entries) };
    }
    const rest: SideEntry[] = [...logged.values()];
    for (let start = 0; start < rest.length; start += PART_ENTRIES) {
      yield { part: part++, entries: encodeEntries(rest.slice(start, start + PART_ENTRIES)) };
    }
  }

  private *deleteStale(current: SideState): Generator<string> {
    while (this.own.deleteStaleParts.run(current.generation, DELETES_PER_STEP).changes > 0) {
      yield 'delete parts';
    }
    while (this.own.deleteFoldedLog.run(current.logThrough, DELETES_PER_STEP).changes > 0) {
      yield 'delete log';
    }
  }
}
