/**
 * The schema store in the SQLite prices file (its own connection, the price store's pragmas and
 * migrations). Syncs run in one IMMEDIATE transaction, so two processes never give the same
 * change two versions.
 */
import { randomBytes } from 'node:crypto';
import type Database from 'better-sqlite3';
import type { Game } from '../domain/games.ts';
import { openPrices } from '../store/sqlite/connection.ts';
import { migrate } from '../store/sqlite/migrate.ts';
import { SQLITE_MIGRATIONS } from '../store/sqlite/migrations.ts';
import type { LogEntry } from './change-log.ts';
import { entryFromRow, type LogRow, type SchemaStore } from './schema-store.ts';

export interface SqliteSchemaStoreOptions {
  /** The prices file (or ':memory:'). */
  path: string;
  now: () => number;
}

const SELECT_AFTER = `SELECT version, item_id, hash, source, removed, record FROM schema_changes
  WHERE game = ? AND version > ? ORDER BY version, item_id`;

/** Rows per page when loading a whole log; the event loop runs between pages. */
const LOAD_PAGE = 4000;

const SELECT_PAGE = `SELECT version, item_id, hash, source, removed, record FROM schema_changes
  WHERE game = ? AND (version, item_id) > (?, ?) ORDER BY version, item_id LIMIT ${LOAD_PAGE}`;

export function createSqliteSchemaStore(options: SqliteSchemaStoreOptions): SchemaStore {
  let db: Database.Database | null = null;
  const ready = (): Database.Database => {
    if (!db) throw new Error('SqliteSchemaStore: call init() first');
    return db;
  };
  const after = (game: Game, version: number): LogEntry[] =>
    ready().prepare<[string, number], LogRow>(SELECT_AFTER).all(game, version).map(entryFromRow);

  const insertAll = (game: Game, entries: readonly LogEntry[]): void => {
    const insert = ready().prepare(
      'INSERT INTO schema_changes (game, version, item_id, hash, source, removed, record) VALUES (?, ?, ?, ?, ?, ?, ?)',
    );
    for (const entry of entries) {
      const { version, id, hash, source, removed, record } = entry;
      insert.run(game, version, id, hash, source, removed ? 1 : 0, JSON.stringify(record));
    }
  };

  return {
    async init() {
      db = openPrices(options.path);
      migrate(db, SQLITE_MIGRATIONS, options.now);
    },
    async close() {
      db?.close();
      db = null;
    },
    async entriesAfter(game, version) {
      const entries: LogEntry[] = [];
      let position: [number, string] = [version, '\uffff'];
      for (;;) {
        const page = ready()
          .prepare<[string, number, string], LogRow>(SELECT_PAGE)
          .all(game, ...position)
          .map(entryFromRow);
        entries.push(...page);
        const last = page.at(-1);
        if (!last || page.length < LOAD_PAGE) return entries;
        position = [last.version, last.id];
        await new Promise<void>((resolve) => setImmediate(resolve));
      }
    },
    async sync(game, knownHead, plan) {
      const run = ready().transaction(() => {
        const newer = after(game, knownHead);
        const appended = plan(newer);
        insertAll(game, appended);
        return { newer, appended };
      });
      return run.immediate();
    },
    async cursorSecret() {
      const conn = ready();
      conn
        .prepare("INSERT OR IGNORE INTO schema_meta (key, value) VALUES ('cursor_secret', ?)")
        .run(randomBytes(32));
      const row = conn
        .prepare<[], { value: Buffer }>("SELECT value FROM schema_meta WHERE key = 'cursor_secret'")
        .get();
      return row!.value;
    },
    async disabledGames() {
      const rows = ready()
        .prepare<[], { game: Game }>('SELECT game FROM game_reads WHERE disabled = 1 ORDER BY game')
        .all();
      return rows.map((row) => row.game);
    },
    async setGameReads(game, enabled, now) {
      ready()
        .prepare(
          `INSERT INTO game_reads (game, disabled, changed_at) VALUES (?, ?, ?)
           ON CONFLICT (game) DO UPDATE SET disabled = excluded.disabled, changed_at = excluded.changed_at`,
        )
        .run(game, enabled ? 0 : 1, now);
    },
  };
}
