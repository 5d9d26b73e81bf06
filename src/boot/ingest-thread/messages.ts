/** Messages between the ingest worker thread and the thread that serves HTTP. */
import type { CatalogData } from '../../catalog/catalog-data.ts';
import type { ServeConfig } from '../../config.ts';
import type { Game } from '../../domain/games.ts';
import type { MarketId } from '../../domain/markets.ts';
import type { FetchRecord, IngestBatch } from '../../domain/quote.ts';
import type { RejectionTally } from '../../ingest/rejections.ts';
import type { BandPlace } from '../band-resume.ts';

/** The validated serve configuration: the worker opens a store of the same kind on its own. */
export type IngestWorkerConfig = ServeConfig;

/** The worker's start data: its configuration and the catalog data it resolves names with. */
export interface IngestWorkerData {
  config: IngestWorkerConfig;
  catalogs: CatalogData;
}

export type WorkerMessage =
  | { type: 'ready' }
  | { type: 'batch'; batch: IngestBatch }
  | { type: 'fetch'; record: FetchRecord }
  /** A cycle's rejections by reason (sent only with metrics on, only when there were some). */
  | { type: 'rejections'; market: MarketId; game: Game; counts: RejectionTally }
  /**
   * The popular-items backfill a `backfill` message asked for is written (not sent when it
   * stopped or failed: the band resumes after its last chunk at the next start).
   */
  | { type: 'backfilled' }
  | { type: 'stopped' }
  | { type: 'failed'; message: string };

/** `demand`: the item names API users asked for most recently, most wanted first. */
/** `backfill`: write the popular-items band from `place` on, on the worker's store. */
export type HostMessage =
  | { type: 'stop' }
  | { type: 'demand'; game: Game; names: string[] }
  | { type: 'backfill'; place: BandPlace };

/**
 * Records (sides, sales, listings, sales statistics) per message: small enough that applying
 * one on the HTTP thread takes well under a slice (src/domain/slicer.ts), so a backlog is
 * applied with requests served between messages.
 */
export const RECORDS_PER_MESSAGE = 500;

/** `records` in runs of at most `size`. */
function runs<T>(records: readonly T[], size: number): T[][] {
  const result: T[][] = [];
  for (let start = 0; start < records.length; start += size) {
    result.push(records.slice(start, start + size));
  }
  return result;
}

/**
 * Splits a committed batch into messages of at most `size` records: sides first, then sales,
 * listings and sales statistics. Applying the parts in order leaves the book as the whole batch
 * would (a listing snapshot replaces only listings of older fetches; sales are de-duplicated).
 */
export function splitBatch(batch: IngestBatch, size = RECORDS_PER_MESSAGE): IngestBatch[] {
  const stats = batch.salesStats ?? [];
  const total = batch.sides.length + batch.sales.length + batch.listings.length + stats.length;
  if (total <= size) return [batch];
  const empty = (): IngestBatch => ({ sides: [], sales: [], listings: [] });
  return [
    ...runs(batch.sides, size).map((sides) => ({ ...empty(), sides })),
    ...runs(batch.sales, size).map((sales) => ({ ...empty(), sales })),
    ...runs(batch.listings, size).map((listings) => ({ ...empty(), listings })),
    ...runs(stats, size).map((salesStats) => ({ ...empty(), salesStats })),
  ];
}

/**
 * The batch with its sides cut to the one the book would keep per (game, item, market, side):
 * the newest fetch, the last of equal ones. A backfill chunk holds a day of hourly steps of the
 * same items, so this sends the HTTP thread one side in 24 and leaves its book as the whole
 * chunk would (sales, listings and statistics pass unchanged).
 */
export function newestSides(batch: IngestBatch): IngestBatch {
  const kept = new Map<string, IngestBatch['sides'][number]>();
  for (const side of batch.sides) {
    const key = `${side.game}\0${side.itemId}\0${side.market}\0${side.side}`;
    const held = kept.get(key);
    if (held === undefined || side.fetchedAt >= held.fetchedAt) kept.set(key, side);
  }
  return kept.size === batch.sides.length ? batch : { ...batch, sides: [...kept.values()] };
}
