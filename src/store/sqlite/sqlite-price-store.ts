/**
 * The embedded PriceStore on better-sqlite3: a prices file and its history file (or both in
 * memory), WAL journal.
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
 * History: the same object is the HistoryStore. writeBatch's transaction also encodes the
 * batch for the rollups (rollup-journal.ts): the sides it stores and the sales that were new,
 * appended to a journal segment file once it commits (journal-segments.ts). The store folds the
 * journal into the rollup rows of the history file (history-file.ts, store-rollups.ts) when due
 * (FOLD_POLICY: each 10-minute period's segments once it has ended; sooner under volume). A
 * store folds what it journaled itself before it reads history or runs a retention step, and
 * on close; journal entries left by a process that died are folded by the next store that
 * opens the files. A side older than the stored one of its key leaves the
 * stored side alone (a past-data import after live data) but still enters its rollups.
 *
 * Latest sides: writeBatch's transaction appends the sides that changed to a log (side-log.ts),
 * which the store compacts into a snapshot once the log outgrows it (side-snapshot.ts); reads
 * merge the two (side-read.ts). Listings and sales statistics likewise, a snapshot per
 * (kind, game, market) (live-log.ts).
 */
import type Database from 'better-sqlite3';
import { systemClock } from '../../domain/clock.ts';
import type { Clock } from '../../domain/clock.ts';
import { GAMES } from '../../domain/games.ts';
import type { Game } from '../../domain/games.ts';
import type { MarketId } from '../../domain/markets.ts';
import type { FetchRecord, IngestBatch, SaleRecord, SideSnapshot } from '../../domain/quote.ts';
import type { HistoryStore } from '../history-store.ts';
import {
  STREAM_CHUNK,
  type BatchWriteCounts,
  type ChunkVisitor,
  type JobProgress,
  type PriceStore,
} from '../price-store.ts';
import { LISTINGS, SALES_STATS } from './live-kinds.ts';
import { convertLiveTables } from './live-convert.ts';
import { LiveLog, type LiveLogOptions } from './live-log.ts';
import { prepareLiveLogStatements } from './live-log-tables.ts';
import { loadRates, prepareLiveStatements, saveRates, type LiveStatements } from './live-tables.ts';
import { migrate } from './migrate.ts';
import { SQLITE_MIGRATIONS } from './migrations.ts';
import { fetchFromRow, fetchParams, saleFromRow, saleParams, stringInterner } from './rows.ts';
import type { Intern } from './rows.ts';
import { ChunkedVisit } from '../row-decoding.ts';
import { openHistory, openPrices } from './connection.ts';
import { createSqliteHistory } from './sqlite-history.ts';
import { openStoreRollups, type StoreRollups } from './store-rollups.ts';
import { prepareStatements } from './statements.ts';
import { convertSideTable } from './side-convert.ts';
import { SalesSnapshots } from './sales-snapshot.ts';
import { SideLog } from './side-log.ts';
import { SideItems } from './side-prints.ts';
import { streamStoredSides } from './side-read.ts';
import { SideSnapshots, type SideSnapshotOptions } from './side-snapshot.ts';
import { prepareSideStatements, type SideStatements } from './side-tables.ts';
import type { Statements } from './statements.ts';

export interface SqlitePriceStoreOptions {
  /** A file path such as `<dataDir>/prices.db`, or ':memory:'. */
  path: string;
  clock?: Clock;
  /** Maintain history rollups in writeBatch (default true; false only for benchmark baselines). */
  rollups?: boolean;
  /** Errors of the folds the store runs when due (default: a process warning). */
  onFoldError?: (message: string) => void;
  /**
   * Whether the store folds, at init, journal entries a process that died left behind
   * (default true). False for a store beside a writer that will (role `all`'s HTTP thread,
   * beside the ingest worker), so init does not wait for it.
   */
  foldLeftoversOnOpen?: boolean;
  /** When the latest sides' log is compacted into a snapshot (side-snapshot.ts). */
  sideSnapshots?: Pick<SideSnapshotOptions, 'minBytes' | 'onStep'>;
  /** When a chunk of the listings and statistics log is snapshotted (live-log.ts). */
  liveSnapshots?: Pick<LiveLogOptions, 'minBytes'>;
}

export interface SqlitePriceStore extends PriceStore, Required<HistoryStore> {
  /** The open connection, for diagnostics and tests (pragmas, integrity checks). */
  readonly db: Database.Database;
  /** Folds the rollup journal into the rollup rows now (else it happens when due). */
  flushRollups(): Promise<void>;
  /** Compacts the latest sides' log into a new snapshot now (else it happens when due). */
  snapshotSides(): void;
  /** Snapshots every chunk of the listings and statistics log now (else when due). */
  snapshotLive(): void;
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

/** Maps rows as they stream out and hands them on `chunkSize` at a time; the count. */
function streamRows<Row, T>(
  rows: Iterable<Row>,
  map: (row: Row, intern: Intern) => T,
  visit: ChunkVisitor<T>,
  chunkSize: number,
): number {
  const intern = stringInterner();
  const chunks = new ChunkedVisit(visit, chunkSize);
  for (const row of rows) chunks.push(map(row, intern));
  return chunks.finish();
}

function isBatchEmpty(batch: IngestBatch): boolean {
  return (
    batch.sides.length === 0 &&
    batch.sales.length === 0 &&
    batch.listings.length === 0 &&
    (batch.salesStats?.length ?? 0) === 0
  );
}

export function createSqlitePriceStore(options: SqlitePriceStoreOptions): SqlitePriceStore {
  const clock = options.clock ?? systemClock;
  const db = openPrices(options.path);
  let statements: Statements | null = null;
  let live: LiveStatements | null = null;
  let liveLog: LiveLog | null = null;
  let rollups: StoreRollups | null = null;
  let salesCopy: SalesSnapshots | null = null;
  let sides: {
    s: SideStatements;
    items: SideItems;
    log: SideLog;
    snapshots: SideSnapshots;
  } | null = null;
  let closed = false;

  const ready = (): Statements => {
    if (statements === null) throw new Error('SqlitePriceStore: call init() first');
    return statements;
  };
  const liveReady = (): LiveStatements => {
    if (live === null) throw new Error('SqlitePriceStore: call init() first');
    return live;
  };
  const liveLogReady = (): LiveLog => {
    if (liveLog === null) throw new Error('SqlitePriceStore: call init() first');
    return liveLog;
  };
  const sidesReady = () => {
    if (sides === null) throw new Error('SqlitePriceStore: call init() first');
    return sides;
  };
  const rollupsReady = (): StoreRollups => {
    if (rollups === null) throw new Error('SqlitePriceStore: call init() first');
    return rollups;
  };

  // Deferred transactions whose first statement writes the prices file: they lock that file
  // only, never the history file a fold may be writing (IMMEDIATE would lock both). A read first
  // (the logs' catch-up) would hold a snapshot that cannot become a write while another
  // connection writes: SQLite then fails at once ('database is locked') instead of waiting.
  const commitBatch = db.transaction((s: Statements, batch: IngestBatch): BatchWriteCounts => {
    s.markFirstWrite.run(clock.now());
    const newSales: SaleRecord[] = [];
    for (const sale of batch.sales) {
      if (s.insertSale.run(saleParams(sale)).changes === 0) continue;
      if (!newSales.some((other) => other.game === sale.game)) salesCopy!.changed(sale.game);
      newSales.push(sale);
    }
    const listings = liveLogReady().append(LISTINGS, batch.listings);
    liveLogReady().append(SALES_STATS, batch.salesStats ?? []);
    const sides = sidesReady().log.append(batch.sides);
    if (options.rollups !== false) rollupsReady().record(batch.sides, newSales);
    return { sides, sales: newSales.length, listings };
  });

  const storeProgress = (s: Statements, progress: JobProgress) => {
    if (progress.state === null) s.forgetProgress.run(progress.job);
    else s.saveProgress.run(progress.job, progress.state);
  };

  // A job's progress commits with the batch that made it (the batch's own transaction nests).
  const commitWithProgress = db.transaction(
    (s: Statements, batch: IngestBatch, progress: JobProgress): BatchWriteCounts => {
      storeProgress(s, progress);
      return commitBatch(s, batch);
    },
  );

  const commitFetches = db.transaction((s: Statements, rows: FetchRecord[]) => {
    for (const row of rows) s.insertFetch.run(fetchParams(row));
  });

  const pruneAll = db.transaction(
    (s: Statements, fetchesBeforeMs: number, salesBeforeMs: number) => {
      s.deleteFetchesBefore.run(fetchesBeforeMs);
      for (const game of GAMES) {
        if (s.deleteSalesBefore.run(game, salesBeforeMs).changes > 0) salesCopy!.changed(game);
      }
    },
  );

  return {
    db,
    ...createSqliteHistory(db, rollupsReady),
    async flushRollups() {
      await rollupsReady().flushAll();
    },
    snapshotSides() {
      sidesReady().snapshots.takeNow();
    },
    snapshotLive() {
      liveLogReady().snapshotAll();
    },
    async init() {
      migrate(db, SQLITE_MIGRATIONS, () => clock.now());
      if (statements !== null) return;
      const sideStatements = prepareSideStatements(db);
      const items = new SideItems(sideStatements);
      convertSideTable(db, sideStatements, items);
      const onError = options.onFoldError ?? ((message: string) => process.emitWarning(message));
      sides = {
        s: sideStatements,
        items,
        log: new SideLog(sideStatements, items),
        snapshots: new SideSnapshots(db, sideStatements, { ...options.sideSnapshots, onError }),
      };
      const liveLogStatements = prepareLiveLogStatements(db);
      convertLiveTables(db, liveLogStatements, items);
      liveLog = new LiveLog(db, liveLogStatements, items, { ...options.liveSnapshots, onError });
      openHistory(db, options.path);
      statements = prepareStatements(db);
      live = prepareLiveStatements(db);
      const selectSales = statements.selectSales;
      salesCopy = new SalesSnapshots(
        db,
        (game, since) => selectSales.iterate(game, since),
        onError,
      );
      rollups = openStoreRollups(db, {
        clock,
        path: options.path,
        onFoldError: options.onFoldError ?? ((message) => process.emitWarning(message)),
        foldOnOpen: options.foldLeftoversOnOpen ?? true,
        beforeFold: () => void db.pragma('wal_checkpoint(PASSIVE)'),
      });
    },
    async writeBatch(batch: IngestBatch, _fence, progress) {
      const s = ready();
      if (isBatchEmpty(batch)) {
        if (progress) storeProgress(s, progress);
        return { sides: 0, sales: 0, listings: 0 };
      }
      const history = rollupsReady();
      let counts: BatchWriteCounts;
      try {
        counts = progress ? commitWithProgress(s, batch, progress) : commitBatch(s, batch);
      } catch (error) {
        history.rolledBack();
        sidesReady().log.rolledBack();
        liveLogReady().rolledBack();
        throw error;
      }
      liveLogReady().committed();
      const { log, snapshots } = sidesReady();
      snapshots.appended(log.committed());
      history.committed();
      return counts;
    },
    async loadSides(game: Game) {
      const all: SideSnapshot[] = [];
      const { s, items } = sidesReady();
      streamStoredSides(db, s, items, game, (chunk) => all.push(...chunk), STREAM_CHUNK);
      return all;
    },
    async loadSales(game: Game, sinceMs: number) {
      return collect(ready().selectSales.iterate(game, sinceMs), saleFromRow);
    },
    async streamSides(game, visit, chunkSize = STREAM_CHUNK) {
      const { s, items } = sidesReady();
      return streamStoredSides(db, s, items, game, visit, chunkSize);
    },
    async streamSales(game, sinceMs, visit, chunkSize = STREAM_CHUNK) {
      const copied = salesCopy!.stream(game, sinceMs, visit, chunkSize);
      if (copied !== null) return copied;
      const rows = ready().selectSales.iterate(game, sinceMs);
      return streamRows(rows, saleFromRow, visit, chunkSize);
    },
    async loadListings(game: Game) {
      return liveLogReady().load(LISTINGS, game);
    },
    async loadSalesStats(game: Game) {
      return liveLogReady().load(SALES_STATS, game);
    },
    async saveFxRates(table) {
      saveRates(db, liveReady(), table);
    },
    async loadFxRates() {
      return loadRates(liveReady());
    },
    async pruneListings(game: Game, market: MarketId, beforeMs: number) {
      return liveLogReady().prune(game, market, beforeMs);
    },
    async recordFetches(rows: FetchRecord[]) {
      const s = ready();
      if (rows.length > 0) commitFetches(s, rows);
    },
    async loadFetches(sinceMs: number) {
      return ready().selectFetches.all(sinceMs).map(fetchFromRow);
    },
    async prune({ fetchesBeforeMs, salesBeforeMs }) {
      pruneAll(ready(), fetchesBeforeMs, salesBeforeMs);
    },
    async jobProgress(job) {
      return ready().selectProgress.get(job)?.[0] ?? null;
    },
    async isEmpty() {
      const sideWritten = sidesReady().s.anySides.get()?.written === 1;
      if (sideWritten || liveLogReady().any()) return false;
      return ready().anythingWritten.get()?.written !== 1;
    },
    async close() {
      if (closed) return;
      closed = true;
      sides?.snapshots.close();
      liveLog?.close();
      salesCopy?.close(GAMES, clock.now());
      if (rollups !== null) await rollups.close();
      if (db.memory === false) db.pragma('wal_checkpoint(TRUNCATE)');
      db.close();
    },
  };
}
