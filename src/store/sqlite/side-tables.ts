/**
 * The tables that hold the SQLite store's latest sides (migration 9): the snapshot parts of the
 * current generation plus the log appended since, the item codes their entries use, and the
 * one row that says which generation is current and how far into the log it reaches. Every
 * read of the latest state is snapshot + log after `logThrough` (side-read.ts).
 */
import type Database from 'better-sqlite3';
import type { Game } from '../../domain/games.ts';
import type { MarketId } from '../../domain/markets.ts';
import type { Intern } from '../row-decoding.ts';
import { decodeEntries, type SideEntry } from './side-codec.ts';

export const SIDE_TABLES_SCHEMA = `
CREATE TABLE side_items (
  code INTEGER PRIMARY KEY,
  game TEXT NOT NULL,
  item_id TEXT NOT NULL,
  UNIQUE (game, item_id)
) STRICT;

CREATE TABLE side_log (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  game TEXT NOT NULL,
  market TEXT NOT NULL,
  entries BLOB NOT NULL
) STRICT;
CREATE INDEX side_log_by_chunk ON side_log (game, market, id);

CREATE TABLE side_parts (
  generation INTEGER NOT NULL,
  game TEXT NOT NULL,
  market TEXT NOT NULL,
  part INTEGER NOT NULL,
  entries BLOB NOT NULL,
  UNIQUE (generation, game, market, part)
) STRICT;

CREATE TABLE side_state (
  one INTEGER PRIMARY KEY CHECK (one = 1),
  generation INTEGER NOT NULL,
  log_through INTEGER NOT NULL
) STRICT;
INSERT INTO side_state (one, generation, log_through) VALUES (1, 0, 0);
`;

/** The current snapshot generation and the last log id it includes. */
export interface SideState {
  generation: number;
  logThrough: number;
}

/** A (game, market): the unit of the log's rows and the snapshot's parts. */
export interface SideChunk {
  game: Game;
  market: MarketId;
}

export function prepareSideStatements(db: Database.Database) {
  return {
    state: db.prepare<[], SideState>(
      'SELECT generation, log_through AS logThrough FROM side_state WHERE one = 1',
    ),
    setState: db.prepare<[number, number]>(
      'UPDATE side_state SET generation = ?, log_through = ? WHERE one = 1',
    ),
    logSeq: db
      .prepare<[], [number]>(`SELECT seq FROM sqlite_sequence WHERE name = 'side_log'`)
      .raw(),
    itemsAfter: db
      .prepare<[number], [number, Game, string]>(
        'SELECT code, game, item_id FROM side_items WHERE code > ? ORDER BY code',
      )
      .raw(),
    insertItem: db.prepare<[number, string, string]>(
      'INSERT INTO side_items (code, game, item_id) VALUES (?, ?, ?)',
    ),
    appendLog: db.prepare<[string, string, Buffer]>(
      'INSERT INTO side_log (game, market, entries) VALUES (?, ?, ?)',
    ),
    chunkLog: db
      .prepare<[string, string, number, number], [Buffer]>(
        `SELECT entries FROM side_log WHERE game = ? AND market = ? AND id > ? AND id <= ?
         ORDER BY id`,
      )
      .raw(),
    chunkParts: db
      .prepare<[number, string, string], [Buffer]>(
        'SELECT entries FROM side_parts WHERE generation = ? AND game = ? AND market = ? ORDER BY part',
      )
      .raw(),
    chunksOf: db
      .prepare<[number, string, number, string], [MarketId]>(
        `SELECT market FROM side_parts WHERE generation = ? AND game = ?
         UNION SELECT market FROM side_log WHERE id > ? AND game = ?`,
      )
      .raw(),
    anySides: db.prepare<[], { written: number }>(
      `SELECT EXISTS (SELECT 1 FROM side_parts) OR EXISTS (SELECT 1 FROM side_log) AS written`,
    ),
  };
}

export type SideStatements = ReturnType<typeof prepareSideStatements>;

export function readSideState(s: SideStatements): SideState {
  const state = s.state.get();
  if (state === undefined) throw new Error('side_state has no row: the store is not migrated');
  return state;
}

export function logSeq(s: SideStatements): number {
  return s.logSeq.get()?.[0] ?? 0;
}

/** The markets of `game` with sides in the current generation or the log after it. */
export function marketsOf(s: SideStatements, game: Game, state: SideState): MarketId[] {
  return s.chunksOf.all(state.generation, game, state.logThrough, game).map((row) => row[0]);
}

/**
 * The chunk's log entries after the snapshot (through `through`), latest per key: a later
 * entry wins unless it was fetched earlier than the one it would replace.
 */
export function chunkLogEntries(
  s: SideStatements,
  chunk: SideChunk,
  after: number,
  intern?: Intern,
): Map<number, SideEntry> {
  const latest = new Map<number, SideEntry>();
  for (const [blob] of s.chunkLog.iterate(
    chunk.game,
    chunk.market,
    after,
    Number.MAX_SAFE_INTEGER,
  )) {
    for (const entry of decodeEntries(blob, intern)) keepLatest(latest, entry);
  }
  return latest;
}

export function keepLatest(latest: Map<number, SideEntry>, entry: SideEntry): void {
  const held = latest.get(entry.key);
  if (held === undefined || entry.fetchedAt >= held.fetchedAt) latest.set(entry.key, entry);
}

/** The chunk's snapshot entries, one part at a time (each key in at most one part). */
export function* chunkSnapshotParts(
  s: SideStatements,
  chunk: SideChunk,
  generation: number,
  intern?: Intern,
): Generator<SideEntry[]> {
  for (const [blob] of s.chunkParts.iterate(generation, chunk.game, chunk.market)) {
    yield decodeEntries(blob, intern);
  }
}

/**
 * Every current entry of the chunk (snapshot merged with the log after it), a part at a time,
 * then the keys only the log has.
 */
export function* chunkEntries(
  s: SideStatements,
  chunk: SideChunk,
  state: SideState,
  intern?: Intern,
): Generator<SideEntry[]> {
  const logged = chunkLogEntries(s, chunk, state.logThrough, intern);
  for (const part of chunkSnapshotParts(s, chunk, state.generation, intern)) {
    yield part.map((entry) => newer(entry, logged));
  }
  if (logged.size > 0) yield [...logged.values()];
}

/** The entry itself or the log's newer one of its key (taken out of `logged`). */
export function newer(entry: SideEntry, logged: Map<number, SideEntry>): SideEntry {
  const later = logged.get(entry.key);
  if (later === undefined) return entry;
  logged.delete(entry.key);
  return later.fetchedAt >= entry.fetchedAt ? later : entry;
}
