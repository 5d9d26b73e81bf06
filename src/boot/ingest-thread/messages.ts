/** Messages between the ingest worker thread and the thread that serves HTTP. */
import type { CatalogData } from '../../catalog/catalog-data.ts';
import type { ServeConfig } from '../../config.ts';
import type { Game } from '../../domain/games.ts';
import type { MarketId } from '../../domain/markets.ts';
import type { FetchRecord, IngestBatch } from '../../domain/quote.ts';
import type { RejectionTally } from '../../ingest/rejections.ts';

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
   * stopped or failed: the band resumes at the next start).
   */
  | { type: 'backfilled' }
  | { type: 'stopped' }
  | { type: 'failed'; message: string };

/** `demand`: the item names API users asked for most recently, most wanted first. */
/** `backfill`: write the first start's popular-items band up to `toMs` on the worker's store. */
export type HostMessage =
  | { type: 'stop' }
  | { type: 'demand'; game: Game; names: string[] }
  | { type: 'backfill'; toMs: number };

/** Sides per message: small enough that applying one never stalls the HTTP thread. */
export const SIDES_PER_MESSAGE = 2_000;

/** Splits a committed batch into messages of at most `size` sides (sales/listings ride along). */
export function splitBatch(batch: IngestBatch, size = SIDES_PER_MESSAGE): IngestBatch[] {
  if (batch.sides.length <= size) return [batch];
  const parts: IngestBatch[] = [];
  for (let start = 0; start < batch.sides.length; start += size) {
    parts.push({ sides: batch.sides.slice(start, start + size), sales: [], listings: [] });
  }
  parts[0] = {
    ...parts[0]!,
    sales: batch.sales,
    listings: batch.listings,
    ...(batch.salesStats ? { salesStats: batch.salesStats } : {}),
  };
  return parts;
}
