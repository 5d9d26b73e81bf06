/**
 * The port that keeps item versions, the cursor secret and the game read switch durable. Two
 * implementations share the price store's database: SQLite (sqlite-schema-store.ts) and
 * PostgreSQL (postgres-schema-store.ts); one contract suite (schema-store-contract.ts) runs
 * against both.
 */
import type { Game } from '../domain/games.ts';
import type { LogEntry } from './change-log.ts';

export interface SyncResult {
  /** Entries another process appended since the caller's head (read under the lock). */
  newer: LogEntry[];
  appended: LogEntry[];
}

export interface SchemaStore {
  init(): Promise<void>;
  close(): Promise<void>;
  /** Entries of the game with a version above `version`, oldest first. */
  entriesAfter(game: Game, version: number): Promise<LogEntry[]>;
  /**
   * Under the store's write lock: reads the entries above `knownHead`, asks `plan` (given them)
   * which entries to append, and writes those in the same transaction.
   */
  sync(game: Game, knownHead: number, plan: (newer: LogEntry[]) => LogEntry[]): Promise<SyncResult>;
  /** The deployment's cursor secret, created on first use. */
  cursorSecret(): Promise<Buffer>;
  disabledGames(): Promise<Game[]>;
  setGameReads(game: Game, enabled: boolean, now: number): Promise<void>;
}

export interface LogRow {
  version: number;
  item_id: string;
  hash: string;
  source: string;
  removed: number | boolean;
  record: string | object;
}

export function entryFromRow(row: LogRow): LogEntry {
  const record = typeof row.record === 'string' ? JSON.parse(row.record) : row.record;
  return {
    version: row.version,
    id: row.item_id,
    hash: row.hash,
    source: row.source === 'learned' ? 'learned' : 'catalog',
    removed: row.removed === true || row.removed === 1,
    record,
  };
}
