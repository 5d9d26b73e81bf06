/**
 * The PriceStore port: durable latest state, sales, listings and fetch measurements.
 * Implementations: sqlite/ (embedded default) and postgres/ (scaled). Every implementation
 * passes the shared contract suite in contract.ts. Dialect specifics stay behind this port.
 */
import type { FxTable } from '../domain/fx.ts';
import type { Game } from '../domain/games.ts';
import type { MarketId } from '../domain/markets.ts';
import type {
  FetchRecord,
  IngestBatch,
  ListingRecord,
  SaleRecord,
  SalesStatsRecord,
  SideSnapshot,
} from '../domain/quote.ts';

/**
 * What one writeBatch changed, per kind: rows stored for the first time, or replacing a stored
 * row with a newer or different one. A batch written twice changes nothing the second time.
 */
export interface BatchWriteCounts {
  sides: number;
  sales: number;
  listings: number;
}

/** Records per chunk handed to a stream callback unless the caller asks for another size. */
export const STREAM_CHUNK = 4096;

/**
 * Receives one chunk of a streamed read. It runs while the store reads on (SQLite: inside the
 * open statement), so it must not call the store; it may keep the array it is handed.
 */
export type ChunkVisitor<T> = (chunk: T[]) => void;

/**
 * A writer's proof that it still holds the lease of `scope` (a market): the lease's fencing
 * token (src/ingest/lease.ts). A store shared by several writers refuses a batch whose token
 * is below the highest it has committed for the scope.
 */
export interface WriteFence {
  scope: string;
  token: number;
}

/** The batch's fence token was overtaken by a newer holder's: nothing was written. */
export class StaleFenceError extends Error {
  constructor(fence: WriteFence) {
    super(`lease of ${fence.scope} was taken over (fencing token ${fence.token} is stale)`);
    this.name = 'StaleFenceError';
  }
}

/**
 * Where a resumable job (the simulator's history backfill) has got to, in the job's own words
 * (opaque to the store). Written in the transaction of the batch that got it there, so after a
 * crash it names exactly the work committed; `state` null forgets the job.
 */
export interface JobProgress {
  job: string;
  state: string | null;
}

export interface PriceStore {
  /** Runs pending migrations. Idempotent. */
  init(): Promise<void>;
  /**
   * Commits the whole batch in one transaction, or nothing. Sides upsert by (game,item,market,side).
   * With a fence, PostgreSQL checks it in the same transaction (StaleFenceError); the embedded
   * SQLite store has a single writer and ignores it. With `progress`, the job's state is stored
   * in the same transaction (alone when the batch is empty).
   */
  writeBatch(
    batch: IngestBatch,
    fence?: WriteFence,
    progress?: JobProgress,
  ): Promise<BatchWriteCounts>;
  /** The state a job last stored with a committed batch, or null (never, or forgotten). */
  jobProgress(job: string): Promise<string | null>;
  /** Every latest side snapshot, to rebuild the in-memory book at boot. */
  loadSides(game: Game): Promise<SideSnapshot[]>;
  /** Sales with soldAt >= sinceMs, oldest first. */
  loadSales(game: Game, sinceMs: number): Promise<SaleRecord[]>;
  /**
   * loadSides a chunk at a time (at most `chunkSize` each, every chunk non-empty), so a
   * caller that only applies them (the boot restore) never holds the whole set; the count.
   */
  streamSides(game: Game, visit: ChunkVisitor<SideSnapshot>, chunkSize?: number): Promise<number>;
  /** loadSales a chunk at a time, oldest first across chunks; the count. */
  streamSales(
    game: Game,
    sinceMs: number,
    visit: ChunkVisitor<SaleRecord>,
    chunkSize?: number,
  ): Promise<number>;
  /** Listings currently held (the latest per listing id). */
  loadListings(game: Game): Promise<ListingRecord[]>;
  /** The latest sales statistics per (item, market, window). */
  loadSalesStats(game: Game): Promise<SalesStatsRecord[]>;
  /** Replaces the stored exchange rates (the last good table of the rate source). */
  saveFxRates(table: FxTable): Promise<void>;
  /** The stored exchange rates, or null when none were ever saved. */
  loadFxRates(): Promise<FxTable | null>;
  /** Drops listings of (game, market) whose fetchedAt is older than `beforeMs`. */
  pruneListings(game: Game, market: MarketId, beforeMs: number): Promise<number>;
  recordFetches(rows: FetchRecord[]): Promise<void>;
  /** Fetch records with startedAt >= sinceMs, oldest first. */
  loadFetches(sinceMs: number): Promise<FetchRecord[]>;
  /** Deletes fetch records and sales older than the given horizons (retention). */
  prune(options: { fetchesBeforeMs: number; salesBeforeMs: number }): Promise<void>;
  /** True when no side, sale or listing has ever been written (drives the simulator backfill). */
  isEmpty(): Promise<boolean>;
  /**
   * Optional: makes every committed batch visible to history reads on other connections now.
   * A store that folds its rollups after the batch (SQLite) does it here; call it when a
   * writer hands over to another (the boot backfill before the ingest worker starts).
   */
  flushRollups?(): Promise<void>;
  close(): Promise<void>;
}
