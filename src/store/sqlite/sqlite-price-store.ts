/**
 * The embedded PriceStore on better-sqlite3: one file (or ':memory:'), WAL journal.
 *
 * Durability: WAL with synchronous=NORMAL. A transaction is complete in the WAL file (in the
 * OS page cache at least) before writeBatch resolves, so it survives the process dying in any
 * way (kill -9, OOM kill, crash): durability.test.ts SIGKILLs a writer mid-stream and finds
 * every batch it reported, intact and all-or-nothing. What NORMAL gives up against FULL is the
 * fsync per commit: after a power cut or kernel crash the last commits before the outage may
 * roll back, but the database stays consistent, never corrupt. FULL would close that window
 * at the cost of one fsync per batch.
 *
 * better-sqlite3 is synchronous: each method runs to completion on the calling thread and
 * returns a settled promise. Large batches therefore block the event loop for their duration
 * (about 50 ms per 10k sides here); ingest sizes its batches accordingly.
 *
 * History: the same object is the HistoryStore. writeBatch's transaction also journals the
 * batch for the rollups (rollup-writer.ts): the sides it stores and the sales that were new.
 * The journal is folded into the rollup rows at most FOLD_POLICY.intervalMs later (sooner under
 * volume), before this object reads history, and on close; a crash folds it on the next open.
 * A side older than the stored one of its key leaves the stored side alone (a past-data import
 * after live data) but still enters its rollups.
 */
import fs from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { systemClock } from '../../domain/clock.ts';
import type { Clock } from '../../domain/clock.ts';
import { GAMES } from '../../domain/games.ts';
import type { Game } from '../../domain/games.ts';
import type { MarketId } from '../../domain/markets.ts';
import type { FetchRecord, IngestBatch, SaleRecord } from '../../domain/quote.ts';
import type { HistoryStore } from '../history-store.ts';
import type { PriceStore } from '../price-store.ts';
import { migrate } from './migrate.ts';
import { SQLITE_MIGRATIONS } from './migrations.ts';
import {
  fetchFromRow,
  fetchParams,
  listingFromRow,
  listingParams,
  saleFromRow,
  saleParams,
  sideFromRow,
  sideParams,
  stringInterner,
} from './rows.ts';
import type { Intern } from './rows.ts';
import { RollupRowCache } from './rollup-row-cache.ts';
import { prepareRollupStatements, type RollupStatements } from './rollup-statements.ts';
import { createRollupWriter, type RollupWriter } from './rollup-writer.ts';
import { SeriesDirectory } from './series-directory.ts';
import { createSqliteHistory } from './sqlite-history.ts';
import { prepareStatements } from './statements.ts';
import type { Statements } from './statements.ts';

export interface SqlitePriceStoreOptions {
  /** A file path such as `<dataDir>/prices.db`, or ':memory:'. */
  path: string;
  clock?: Clock;
  /** Maintain history rollups in writeBatch (default true; false only for benchmark baselines). */
  rollups?: boolean;
}

export interface SqlitePriceStore extends PriceStore, HistoryStore {
  /** The open connection, for diagnostics and tests (pragmas, integrity checks). */
  readonly db: Database.Database;
  /** Folds the rollup journal into the rollup rows now (else it happens when due). */
  flushRollups(): Promise<void>;
}

const BUSY_TIMEOUT_MS = 5000;
/** How often an idle store checks whether its rollup journal is due for a fold. */
const FOLD_CHECK_MS = 1000;
/** Page cache per connection (negative = KiB): holds a whole 10k-side batch's pages. */
const CACHE_KIB = 32 * 1024;
/** The WAL file is truncated back to this after a checkpoint (a big import can bloat it). */
const WAL_SIZE_LIMIT_BYTES = 64 * 1024 * 1024;

function openDatabase(path: string): Database.Database {
  if (path !== ':memory:') fs.mkdirSync(dirname(path), { recursive: true });
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
  db.pragma('foreign_keys = ON');
  db.pragma(`cache_size = -${CACHE_KIB}`);
  db.pragma(`journal_size_limit = ${WAL_SIZE_LIMIT_BYTES}`);
  return db;
}

/**
 * Maps rows as they stream out of SQLite: cheaper than all() for large reads (all() keeps
 * every raw row alive until the end, which costs the garbage collector dearly at 10^6 rows).
 */
function collect<Row, T>(rows: Iterable<Row>, map: (row: Row, intern: Intern) => T): T[] {
  const intern = stringInterner();
  const out: T[] = [];
  for (const row of rows) out.push(map(row, intern));
  return out;
}

function isBatchEmpty(batch: IngestBatch): boolean {
  return batch.sides.length === 0 && batch.sales.length === 0 && batch.listings.length === 0;
}

export function createSqlitePriceStore(options: SqlitePriceStoreOptions): SqlitePriceStore {
  const clock = options.clock ?? systemClock;
  const db = openDatabase(options.path);
  let statements: Statements | null = null;
  let history: {
    statements: RollupStatements;
    directory: SeriesDirectory;
    cache: RollupRowCache;
    writer: RollupWriter;
    flush: () => void;
  } | null = null;
  let closed = false;

  const ready = (): Statements => {
    if (statements === null) throw new Error('SqlitePriceStore: call init() first');
    return statements;
  };
  const historyReady = () => {
    if (history === null) throw new Error('SqlitePriceStore: call init() first');
    return history;
  };

  const commitBatch = db.transaction((s: Statements, batch: IngestBatch) => {
    for (const side of batch.sides) s.upsertSide.run(sideParams(side));
    const newSales: SaleRecord[] = [];
    for (const sale of batch.sales) {
      if (s.insertSale.run(saleParams(sale)).changes > 0) newSales.push(sale);
    }
    for (const listing of batch.listings) s.upsertListing.run(listingParams(listing));
    if (options.rollups !== false) historyReady().writer.record(batch.sides, newSales, clock.now());
    s.markFirstWrite.run(clock.now());
  });

  const foldRollups = db.transaction(() => historyReady().writer.fold(clock.now()));

  /** Runs `work`; after a failure the rollup caches start over from what is committed. */
  const guarded = <T>(work: () => T): T => {
    const { directory, cache, writer } = historyReady();
    try {
      const result = work();
      directory.commit();
      cache.committed();
      return result;
    } catch (error) {
      directory.discard();
      cache.invalidate();
      writer.recover();
      throw error;
    }
  };

  const flushRollups = (force: boolean) => {
    const { writer } = historyReady();
    if (force ? writer.hasPending() : writer.isDue(clock.now())) {
      guarded(() => foldRollups.immediate());
    }
  };
  let foldTimer: NodeJS.Timeout | null = null;
  /** The idle check: a failed fold stays pending and surfaces on the next batch or read. */
  const foldWhenDue = () => {
    if (closed || !db.open) return;
    try {
      flushRollups(false);
    } catch {
      // kept in the journal; retried when next due
    }
  };

  const commitFetches = db.transaction((s: Statements, rows: FetchRecord[]) => {
    for (const row of rows) s.insertFetch.run(fetchParams(row));
  });

  const pruneAll = db.transaction(
    (s: Statements, fetchesBeforeMs: number, salesBeforeMs: number) => {
      s.deleteFetchesBefore.run(fetchesBeforeMs);
      for (const game of GAMES) s.deleteSalesBefore.run(game, salesBeforeMs);
    },
  );

  return {
    db,
    ...createSqliteHistory(db, historyReady),
    async flushRollups() {
      flushRollups(true);
    },
    async init() {
      migrate(db, SQLITE_MIGRATIONS, () => clock.now());
      statements ??= prepareStatements(db);
      if (history === null) {
        const rollupStatements = prepareRollupStatements(db);
        const directory = new SeriesDirectory(rollupStatements);
        const cache = new RollupRowCache(db, rollupStatements);
        const writer = createRollupWriter(rollupStatements, directory, cache);
        const flush = () => flushRollups(true);
        history = { statements: rollupStatements, directory, cache, writer, flush };
        writer.recover();
        flushRollups(true);
        foldTimer = setInterval(foldWhenDue, FOLD_CHECK_MS).unref();
      }
    },
    async writeBatch(batch: IngestBatch) {
      const s = ready();
      if (isBatchEmpty(batch)) return;
      guarded(() => commitBatch.immediate(s, batch));
    },
    async loadSides(game: Game) {
      return collect(ready().selectSides.iterate(game), sideFromRow);
    },
    async loadSales(game: Game, sinceMs: number) {
      return collect(ready().selectSales.iterate(game, sinceMs), saleFromRow);
    },
    async loadListings(game: Game) {
      return collect(ready().selectListings.iterate(game), listingFromRow);
    },
    async pruneListings(game: Game, market: MarketId, beforeMs: number) {
      return ready().deleteListingsBefore.run(game, market, beforeMs).changes;
    },
    async recordFetches(rows: FetchRecord[]) {
      const s = ready();
      if (rows.length > 0) commitFetches.immediate(s, rows);
    },
    async loadFetches(sinceMs: number) {
      return ready().selectFetches.all(sinceMs).map(fetchFromRow);
    },
    async prune({ fetchesBeforeMs, salesBeforeMs }) {
      pruneAll.immediate(ready(), fetchesBeforeMs, salesBeforeMs);
    },
    async isEmpty() {
      return ready().anythingWritten.get()?.written !== 1;
    },
    async close() {
      if (closed) return;
      if (history !== null) flushRollups(true);
      if (foldTimer !== null) clearInterval(foldTimer);
      closed = true;
      if (db.memory === false) db.pragma('wal_checkpoint(TRUNCATE)');
      db.close();
    },
  };
}
