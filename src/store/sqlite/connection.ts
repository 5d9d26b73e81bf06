/**
 * Opening a store connection: the prices file with its pragmas (WAL, synchronous=NORMAL, busy
 * timeout, page cache) and, once migrated, the history file attached beside it.
 */
import fs from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { attachHistory } from './history-file.ts';

const BUSY_TIMEOUT_MS = 5000;
/** Page cache per connection and file (negative = KiB): holds a whole 10k-side batch's pages. */
const CACHE_KIB = 32 * 1024;
/** The WAL file is truncated back to this after a checkpoint (a big import can bloat it). */
const WAL_SIZE_LIMIT_BYTES = 64 * 1024 * 1024;
/**
 * Pages in a file's WAL before a commit checkpoints it (SQLite's default is 1,000): a bound for
 * imports and backfills only. The store checkpoints before each fold instead (issue 31), so a
 * 10-minute period's WAL is copied once, each page it changed one time, not every 4 MB: batches
 * rewrite the same hot pages of the prices file (sales statistics, the latest sides' and the
 * listings' logs).
 */
const WAL_CHECKPOINT_PAGES = WAL_SIZE_LIMIT_BYTES / 4096;

/** Opens the prices file (or ':memory:') without the history file. */
export function openPrices(path: string): Database.Database {
  if (path !== ':memory:') fs.mkdirSync(dirname(path), { recursive: true });
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
  db.pragma('foreign_keys = ON');
  db.pragma(`cache_size = -${CACHE_KIB}`);
  db.pragma(`journal_size_limit = ${WAL_SIZE_LIMIT_BYTES}`);
  db.pragma(`wal_autocheckpoint = ${WAL_CHECKPOINT_PAGES}`);
  return db;
}

/**
 * Opens a small side store (accounts, alerts, inventory snapshots) or ':memory:': WAL, the busy
 * timeout and foreign keys, without the prices file's page cache and WAL limit.
 */
export function openSideStore(path: string): Database.Database {
  if (path !== ':memory:') fs.mkdirSync(dirname(path), { recursive: true });
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
  db.pragma('foreign_keys = ON');
  return db;
}

/** Attaches the history file to a migrated prices connection. */
export function openHistory(db: Database.Database, pricesPath: string): void {
  attachHistory(db, pricesPath, { cacheKib: CACHE_KIB });
}
