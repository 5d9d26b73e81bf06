/**
 * Opening a store connection: the prices file with its pragmas (1 KiB pages, WAL,
 * synchronous=NORMAL, busy timeout, page cache) and, once migrated, the history file attached
 * beside it.
 */
import fs from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { attachHistory } from './history-file.ts';

const BUSY_TIMEOUT_MS = 5000;
/** Page cache per connection and file (negative = KiB): holds a whole 10k-side batch's pages. */
const CACHE_KIB = 32 * 1024;
/**
 * The WAL file is truncated back to this after a checkpoint (a big import can bloat it), and a
 * commit past it checkpoints (SQLite's default is 1,000 pages): a bound for imports and
 * backfills only. The store checkpoints before each fold instead (issue 31), so a 10-minute
 * period's WAL is copied once, each page it changed one time, not every 4 MB: batches rewrite
 * the same hot pages of the prices file (sales statistics, the latest sides' and the listings'
 * logs).
 */
const WAL_SIZE_LIMIT_BYTES = 64 * 1024 * 1024;
/**
 * The prices file's page size (SQLite's default is 4 KiB). Each commit rewrites a few pages
 * whatever it adds (the logs' last pages and their indexes, the AUTOINCREMENT sequence, page 1:
 * 4.8 WAL frames a commit, about one commit every 2 s), so smaller pages write fewer bytes:
 * 2.55 against 3.00 GB a day (issue 31).
 */
const PRICES_PAGE_BYTES = 1024;

/**
 * Rebuilds a prices file of other pages (earlier releases' 4 KiB) with PRICES_PAGE_BYTES, once:
 * VACUUM, which leaves the file as it was if it is interrupted. It needs the file to itself, so
 * while another connection has it open the file stays as it is until a later open.
 */
function convertPageSize(db: Database.Database): void {
  if (db.memory || db.pragma('page_size', { simple: true }) === PRICES_PAGE_BYTES) return;
  try {
    db.pragma('journal_mode = DELETE');
    db.pragma(`page_size = ${PRICES_PAGE_BYTES}`);
    db.exec('VACUUM');
  } catch {
    // Another connection holds the file: converted by a later open.
  }
}

/** Opens the prices file (or ':memory:') without the history file. */
export function openPrices(path: string): Database.Database {
  if (path !== ':memory:') fs.mkdirSync(dirname(path), { recursive: true });
  const db = new Database(path);
  db.pragma(`page_size = ${PRICES_PAGE_BYTES}`);
  convertPageSize(db);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
  db.pragma('foreign_keys = ON');
  db.pragma(`cache_size = -${CACHE_KIB}`);
  db.pragma(`journal_size_limit = ${WAL_SIZE_LIMIT_BYTES}`);
  const pageBytes = db.pragma('page_size', { simple: true }) as number;
  db.pragma(`wal_autocheckpoint = ${WAL_SIZE_LIMIT_BYTES / pageBytes}`);
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
