/**
 * The scaled PriceStore on PostgreSQL (DATABASE_URL), shared by every ingest and API process.
 *
 * - init() applies migrations under an advisory lock (migrate.ts) and creates the partitions
 *   of the current and the next month ahead of time.
 * - writeBatch() is one transaction: the writer's lease fence is claimed first (a stale token
 *   refuses the batch), sides and listings de-duplicated by key (the later record wins), then
 *   one unnest() statement per kind, and a resumable job's progress when given. Before it, the
 *   months its sales touch get their partitions (partitions.ts). An older snapshot never
 *   overwrites a newer one.
 * - History: the same object is the HistoryStore (history.ts). writeBatch's transaction also
 *   appends the batch's rollup entries to the journal (rollup-journal.ts): the sides it was
 *   given and the sales that were new, so the journal always matches the committed data. The
 *   journal is folded into the rollup rows once their 10-minute bucket closed (rollup-folder.ts).
 *   The months the rollups touch get their partitions before the transaction, like the sales'.
 * - Calls fail within the pool's connect timeout (2 s) when the server is unreachable;
 *   isUnavailableError() (../unavailable.ts) recognises those failures.
 */
import { systemClock } from '../../domain/clock.ts';
import type { Clock } from '../../domain/clock.ts';
import type { Game } from '../../domain/games.ts';
import type { MarketId } from '../../domain/markets.ts';
import type { FetchRecord, IngestBatch, SaleRecord, SideSnapshot } from '../../domain/quote.ts';
import type { HistoryStore } from '../history-store.ts';
import {
  STREAM_CHUNK,
  StaleFenceError,
  type BatchWriteCounts,
  type JobProgress,
  type PriceStore,
  type WriteFence,
} from '../price-store.ts';
import { stringInterner, type Intern } from '../row-decoding.ts';
import { arrayLiteral } from './array-literal.ts';
import { forEachChunk } from './cursor.ts';
import { createPool, inTransaction } from './driver.ts';
import type { Pool, PoolClient, PostgresConnectionOptions } from './driver.ts';
import { createPostgresHistory } from './history.ts';
import { PostgresSeriesDirectory } from './history-series.ts';
import { insertJournal, PARTITIONED_TIERS, rollupTable } from './history-statements.ts';
import { loadFxRates, loadSalesStats, saveFxRates, upsertSalesStats } from './live-tables.ts';
import { migrate } from './migrate.ts';
import { PRICE_LEDGER, PRICE_MIGRATIONS, tierFillfactor } from './migrations.ts';
import { nextMonthStart, partitionManager } from './partitions.ts';
import type { PartitionManager } from './partitions.ts';
import {
  fetchColumns,
  fetchFromRow,
  lastPerKey,
  listingColumns,
  listingFromRow,
  listingKey,
  saleColumns,
  saleFromRow,
  sideColumns,
  sideFromRow,
  sideKey,
} from './rows.ts';
import type { FetchRow, ListingRow, SaleRow, SideRow } from './rows.ts';
import { createRollupFolder } from './rollup-folder.ts';
import { journalEntries, journalRows, journalSeries } from './rollup-journal.ts';
import * as sql from './statements.ts';

export interface PostgresPriceStoreOptions extends PostgresConnectionOptions {
  clock?: Clock;
  /** Errors of the rollup folds the store runs by itself (the journal keeps their rows). */
  onFoldError?: (message: string) => void;
  /** How long a fenced write may sit idle mid-transaction; FENCED_IDLE_LIMIT_MS by default. */
  fencedIdleLimitMs?: number;
}

/**
 * A fenced write's transaction holds its fence row from the claim to the commit. A holder paused
 * in between (a frozen VM, SIGSTOP) would hold it for as long as the pause and block the next
 * holder's claim, and with it that market's cycle; PostgreSQL ends a session idle that long.
 */
export const FENCED_IDLE_LIMIT_MS = 10_000;

export interface PostgresPriceStore extends PriceStore, HistoryStore {
  /** The connection pool, for diagnostics and tests. */
  readonly pool: Pool;
  /** Folds the whole rollup journal, every process's entries (history reads current). */
  flushRollups(): Promise<void>;
}

function collect<Row, T>(rows: readonly Row[], map: (row: Row, intern: Intern) => T): T[] {
  const intern = stringInterner();
  return rows.map((row) => map(row, intern));
}

function isBatchEmpty(batch: IngestBatch): boolean {
  return (
    batch.sides.length === 0 &&
    batch.sales.length === 0 &&
    batch.listings.length === 0 &&
    (batch.salesStats?.length ?? 0) === 0
  );
}

/** Builds every column array first, so a record the codec refuses fails before any I/O. */
function batchColumns(batch: IngestBatch) {
  return {
    sides: batch.sides.length > 0 ? sideColumns(lastPerKey(batch.sides, sideKey)) : null,
    sales: batch.sales.length > 0 ? saleColumns(batch.sales) : null,
    listings:
      batch.listings.length > 0 ? listingColumns(lastPerKey(batch.listings, listingKey)) : null,
  };
}

/**
 * Writes the batch's rows; returns the sales that were new and what changed per kind. With
 * `firstWriteAt`, marks the store's first write; once a batch of this store has committed the
 * mark, later ones skip it.
 */
async function writeColumns(
  client: PoolClient,
  columns: ReturnType<typeof batchColumns>,
  firstWriteAt: number | null,
): Promise<{ newSales: SaleRecord[]; counts: BatchWriteCounts }> {
  const changed = async (query: ReturnType<typeof sql.upsertSides> | null) =>
    query === null ? 0 : ((await client.query(query)).rowCount ?? 0);
  const sides = await changed(columns.sides ? sql.upsertSides(columns.sides) : null);
  let newSales: SaleRecord[] = [];
  if (columns.sales) {
    const inserted = await client.query<SaleRow>(sql.insertSales(columns.sales));
    newSales = collect(inserted.rows, saleFromRow);
  }
  const listings = await changed(columns.listings ? sql.upsertListings(columns.listings) : null);
  if (firstWriteAt !== null) await client.query(sql.markFirstWrite([firstWriteAt]));
  return { newSales, counts: { sides, sales: newSales.length, listings } };
}

/** Times a batch's rollups land at (their buckets lie in the same UTC months). */
function rollupTimes(batch: IngestBatch): number[] {
  return [...batch.sides.map((side) => side.fetchedAt), ...batch.sales.map((sale) => sale.soldAt)];
}

/**
 * Appends the batch's rollup entries to the journal. Call inside the batch's transaction,
 * after its sides and sales were written; returns the series ids it used (for
 * directory.commit once committed) and the entries journaled.
 */
async function journalRollups(
  client: PoolClient,
  directory: PostgresSeriesDirectory,
  sides: readonly SideSnapshot[],
  newSales: readonly SaleRecord[],
): Promise<{ ids: Map<string, number>; entries: number }> {
  const names = journalSeries(sides, newSales);
  if (names.length === 0) return { ids: new Map(), entries: 0 };
  const ids = await directory.ensure(client, names);
  const rows = journalRows(journalEntries(sides, newSales, ids));
  if (rows.length > 0) {
    await client.query(
      insertJournal([
        arrayLiteral('number', rows, (row) => row.baseAt),
        arrayLiteral('number', rows, (row) => row.closesAt),
        arrayLiteral('number', rows, (row) => row.entries),
        arrayLiteral('bytea', rows, (row) => row.body),
      ]),
    );
  }
  return { ids, entries: rows.reduce((sum, row) => sum + row.entries, 0) };
}

async function claimFence(client: PoolClient, fence: WriteFence, idleMs: number): Promise<void> {
  await client.query(`SET LOCAL idle_in_transaction_session_timeout = ${Math.trunc(idleMs)}`);
  const claimed = await client.query(sql.claimFence([fence.scope, fence.token]));
  if (claimed.rowCount === 0) throw new StaleFenceError(fence);
}

async function storeProgress(db: Pool | PoolClient, progress: JobProgress): Promise<void> {
  const { job, state } = progress;
  await db.query(state === null ? sql.forgetProgress([job]) : sql.saveProgress([job, state]));
}

export function createPostgresPriceStore(options: PostgresPriceStoreOptions): PostgresPriceStore {
  const clock = options.clock ?? systemClock;
  const fencedIdleLimitMs = options.fencedIdleLimitMs ?? FENCED_IDLE_LIMIT_MS;
  const pool = createPool(options);
  const salesMonths = partitionManager(pool, { table: 'sales', column: 'sold_at' });
  const fetchMonths = partitionManager(pool, { table: 'fetch_records', column: 'started_at' });
  const rollupMonths = PARTITIONED_TIERS.map((tier) =>
    partitionManager(pool, {
      table: rollupTable(tier),
      column: 'start',
      fillfactor: tierFillfactor(tier),
    }),
  );
  const directory = new PostgresSeriesDirectory();
  const folder = createRollupFolder({
    pool,
    clock,
    ...(options.onFoldError ? { onFoldError: options.onFoldError } : {}),
  });
  let initialised = false;
  let closed = false;
  let firstWriteMarked = false;

  const ready = (): void => {
    if (!initialised) throw new Error('PostgresPriceStore: call init() first');
  };

  const ensureAhead = async (months: PartitionManager[]): Promise<void> => {
    const now = clock.now();
    for (const table of months) await table.ensure([now, nextMonthStart(now)]);
  };

  return {
    pool,
    ...createPostgresHistory(() => {
      ready();
      return { db: pool, directory, folder };
    }),
    async init() {
      await migrate(pool, {
        ledger: PRICE_LEDGER,
        migrations: PRICE_MIGRATIONS,
        ...(options.schema === undefined ? {} : { schema: options.schema }),
        now: () => clock.now(),
      });
      await ensureAhead([salesMonths, fetchMonths, ...rollupMonths]);
      initialised = true;
    },
    async writeBatch(batch, fence, progress) {
      ready();
      if (isBatchEmpty(batch)) {
        if (progress) await storeProgress(pool, progress);
        return { sides: 0, sales: 0, listings: 0 };
      }
      const columns = batchColumns(batch);
      await salesMonths.ensure(batch.sales.map((sale) => sale.soldAt));
      const times = rollupTimes(batch);
      for (const months of rollupMonths) await months.ensure(times);
      const { journaled, counts } = await inTransaction(pool, async (client) => {
        if (fence) await claimFence(client, fence, fencedIdleLimitMs);
        const firstWriteAt = firstWriteMarked ? null : clock.now();
        const { newSales, counts } = await writeColumns(client, columns, firstWriteAt);
        await upsertSalesStats(client, batch.salesStats ?? []);
        if (progress) await storeProgress(client, progress);
        return {
          journaled: await journalRollups(client, directory, batch.sides, newSales),
          counts,
        };
      });
      directory.commit(journaled.ids);
      firstWriteMarked = true;
      if (journaled.entries > 0) await folder.journaled(journaled.entries);
      return counts;
    },
    async loadSides(game: Game) {
      ready();
      const result = await pool.query<SideRow>(sql.selectSides([game]));
      return collect(result.rows, sideFromRow);
    },
    async loadSales(game: Game, sinceMs: number) {
      ready();
      const result = await pool.query<SaleRow>(sql.selectSales([game, sinceMs]));
      return collect(result.rows, saleFromRow);
    },
    async streamSides(game, visit, chunkSize = STREAM_CHUNK) {
      ready();
      const intern = stringInterner();
      return forEachChunk<SideRow>(pool, sql.selectSides([game]), chunkSize, (rows) =>
        visit(rows.map((row) => sideFromRow(row, intern))),
      );
    },
    async streamSales(game, sinceMs, visit, chunkSize = STREAM_CHUNK) {
      ready();
      const intern = stringInterner();
      return forEachChunk<SaleRow>(pool, sql.selectSales([game, sinceMs]), chunkSize, (rows) =>
        visit(rows.map((row) => saleFromRow(row, intern))),
      );
    },
    async loadListings(game: Game) {
      ready();
      const result = await pool.query<ListingRow>(sql.selectListings([game]));
      return collect(result.rows, listingFromRow);
    },
    async loadSalesStats(game: Game) {
      ready();
      return loadSalesStats(pool, game);
    },
    async saveFxRates(table) {
      ready();
      await saveFxRates(pool, table);
    },
    async loadFxRates() {
      ready();
      return loadFxRates(pool);
    },
    async pruneListings(game: Game, market: MarketId, beforeMs: number) {
      ready();
      const result = await pool.query(sql.deleteListingsBefore([game, market, beforeMs]));
      return result.rowCount ?? 0;
    },
    async recordFetches(rows: FetchRecord[]) {
      ready();
      if (rows.length === 0) return;
      await fetchMonths.ensure(rows.map((row) => row.startedAt));
      await pool.query(sql.insertFetches(fetchColumns(rows)));
    },
    async loadFetches(sinceMs: number) {
      ready();
      const result = await pool.query<FetchRow>(sql.selectFetches([sinceMs]));
      return result.rows.map(fetchFromRow);
    },
    async prune({ fetchesBeforeMs, salesBeforeMs }) {
      ready();
      await fetchMonths.dropMonthsBefore(fetchesBeforeMs);
      await salesMonths.dropMonthsBefore(salesBeforeMs);
      await inTransaction(pool, async (client) => {
        await client.query(sql.deleteFetchesBefore([fetchesBeforeMs]));
        await client.query(sql.deleteSalesBefore([salesBeforeMs]));
      });
    },
    async jobProgress(job) {
      ready();
      const result = await pool.query<{ state: string }>(sql.selectProgress([job]));
      return result.rows[0]?.state ?? null;
    },
    async isEmpty() {
      ready();
      const result = await pool.query<{ written: boolean }>(sql.anythingWritten([]));
      return result.rows[0]?.written !== true;
    },
    async flushRollups() {
      ready();
      await folder.flush();
    },
    async close() {
      if (closed) return;
      closed = true;
      if (initialised) await folder.close();
      await pool.end();
    },
  };
}
