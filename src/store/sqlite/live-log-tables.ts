/**
 * The tables of the SQLite live log (migration 11): per (kind, game, market) chunk, one
 * compact snapshot that includes the log up to its `log_through`, and the log appended since:
 * one row per chunk and batch holding the rows that changed, or a prune marker (no rows, every
 * listing fetched before `prune_before` goes). The current state of a chunk is its snapshot
 * with its later log applied in order (chunkRows).
 */
import type Database from 'better-sqlite3';
import type { Game } from '../../domain/games.ts';
import type { MarketId } from '../../domain/markets.ts';
import { decodeRows, type LiveKind, type LiveRow } from './live-kinds.ts';

export const LIVE_LOG_SCHEMA = `
CREATE TABLE live_log (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  kind TEXT NOT NULL,
  game TEXT NOT NULL,
  market TEXT NOT NULL,
  entries BLOB NOT NULL,
  prune_before INTEGER
) STRICT;
CREATE INDEX live_log_by_chunk ON live_log (kind, game, market, id);

CREATE TABLE live_snapshots (
  kind TEXT NOT NULL,
  game TEXT NOT NULL,
  market TEXT NOT NULL,
  log_through INTEGER NOT NULL,
  entries BLOB NOT NULL,
  PRIMARY KEY (kind, game, market)
) STRICT, WITHOUT ROWID;
`;

export interface LiveChunk {
  kind: LiveKind<unknown>['name'];
  game: Game;
  market: MarketId;
}

type ChunkKey = [kind: string, game: string, market: string];

export function prepareLiveLogStatements(db: Database.Database) {
  return {
    logSeq: db
      .prepare<[], [number]>(`SELECT seq FROM sqlite_sequence WHERE name = 'live_log'`)
      .raw(),
    append: db.prepare<[...ChunkKey, Buffer, number | null]>(
      'INSERT INTO live_log (kind, game, market, entries, prune_before) VALUES (?, ?, ?, ?, ?)',
    ),
    snapshot: db
      .prepare<ChunkKey, [number, Buffer]>(
        'SELECT log_through, entries FROM live_snapshots WHERE kind = ? AND game = ? AND market = ?',
      )
      .raw(),
    logAfter: db
      .prepare<[...ChunkKey, number], [number, Buffer, number | null]>(
        `SELECT id, entries, prune_before FROM live_log
         WHERE kind = ? AND game = ? AND market = ? AND id > ? ORDER BY id`,
      )
      .raw(),
    logBytes: db
      .prepare<[...ChunkKey, number], [number]>(
        `SELECT total(length(entries)) FROM live_log
         WHERE kind = ? AND game = ? AND market = ? AND id > ?`,
      )
      .raw(),
    marketsOf: db
      .prepare<[string, string, string, string], [MarketId]>(
        `SELECT market FROM live_snapshots WHERE kind = ? AND game = ?
         UNION SELECT market FROM live_log WHERE kind = ? AND game = ?`,
      )
      .raw(),
    loggedChunks: db
      .prepare<[], ChunkKey>('SELECT DISTINCT kind, game, market FROM live_log')
      .raw(),
    putSnapshot: db.prepare<[...ChunkKey, number, Buffer]>(
      `INSERT OR REPLACE INTO live_snapshots (kind, game, market, log_through, entries)
       VALUES (?, ?, ?, ?, ?)`,
    ),
    dropLogThrough: db.prepare<[...ChunkKey, number]>(
      'DELETE FROM live_log WHERE kind = ? AND game = ? AND market = ? AND id <= ?',
    ),
    anyRecords: db
      .prepare<[], [number]>(
        'SELECT EXISTS (SELECT 1 FROM live_snapshots) OR EXISTS (SELECT 1 FROM live_log)',
      )
      .raw(),
  };
}

export type LiveLogStatements = ReturnType<typeof prepareLiveLogStatements>;

export function chunkKey(chunk: LiveChunk): ChunkKey {
  return [chunk.kind, chunk.game, chunk.market];
}

/** A chunk's current rows by key, the last log id they include, and their snapshot's bytes. */
export interface ChunkState {
  rows: Map<string, LiveRow>;
  through: number;
  snapshotBytes: number;
  logBytes: number;
}

/**
 * Snapshot, then the log after it in order: a row replaces the held one of its key unless it
 * was fetched earlier; a prune marker removes the rows fetched before it.
 */
export function chunkRows(
  s: LiveLogStatements,
  kind: LiveKind<unknown>,
  chunk: LiveChunk,
): ChunkState {
  const rows = new Map<string, LiveRow>();
  const key = chunkKey(chunk);
  const [through, blob] = s.snapshot.get(...key) ?? [0, Buffer.alloc(0)];
  for (const row of decodeRows(blob)) rows.set(kind.keyOf(row), row);
  const state = { rows, through, snapshotBytes: blob.length, logBytes: 0 };
  for (const [id, entries, pruneBefore] of s.logAfter.iterate(...key, through)) {
    if (pruneBefore !== null) dropBefore(kind, rows, pruneBefore);
    for (const row of decodeRows(entries)) keepLatest(kind, rows, row);
    state.through = id;
    state.logBytes += entries.length;
  }
  return state;
}

function keepLatest(kind: LiveKind<unknown>, rows: Map<string, LiveRow>, row: LiveRow): void {
  const key = kind.keyOf(row);
  const held = rows.get(key);
  if (held === undefined || (row[kind.atIndex] as number) >= (held[kind.atIndex] as number)) {
    rows.set(key, row);
  }
}

function dropBefore(kind: LiveKind<unknown>, rows: Map<string, LiveRow>, before: number): void {
  for (const [key, row] of rows) if ((row[kind.atIndex] as number) < before) rows.delete(key);
}
