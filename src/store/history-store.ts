/**
 * The HistoryStore port: stored price-history rollups, 10-minute / hourly / daily buckets per
 * item, for each market's own series and for the cross-market aggregate (src/pricing/rollups.ts
 * says what a bucket holds). Rollups are WRITTEN by PriceStore.writeBatch (so `pricing import`
 * and the simulator backfill maintain them too): both stores journal them in the batch's
 * transaction and fold the journal into the rows once their 10-minute bucket closed
 * (sqlite/store-rollups.ts, postgres/rollup-folder.ts). An implementation stores both and implements both ports on one
 * object. This port reads them and enforces retention. Every implementation passes
 * history-contract.ts; dialect specifics stay behind the port.
 */
import type { BucketObservation, BucketRollup } from './bucket-history.ts';
import type { Game } from '../domain/games.ts';
import type { MarketId } from '../domain/markets.ts';
import type { Tier } from '../pricing/rollup-buckets.ts';
import type { RollupRow } from '../pricing/rollups.ts';
import type { SaleCount } from '../pricing/rollup-volume.ts';

/** One series: an item on one market, or (market null) the item's cross-market aggregate. */
export interface SeriesKey {
  game: Game;
  itemId: string;
  market: MarketId | null;
}

export type RollupSection = 'ask' | 'bid' | 'sales';
export const ALL_SECTIONS: readonly RollupSection[] = ['ask', 'bid', 'sales'];

export interface CompactionStep {
  /** Buckets deleted (or, packing, packed) by this call. */
  deleted: number;
  /** Where the next call continues; null when the pass is complete. */
  cursor: string | null;
}

export interface HistoryStore {
  /** Markets with a stored series for the item (at any time), in MARKET_IDS order. */
  historyMarkets(game: Game, itemId: string): Promise<MarketId[]>;
  /**
   * Buckets of one series and tier with start in [fromMs, toMs), oldest first. Only the
   * `sections` asked for are read (default all three); the others come back null.
   */
  readRollups(
    series: SeriesKey,
    tier: Tier,
    fromMs: number,
    toMs: number,
    sections?: readonly RollupSection[],
  ): Promise<RollupRow[]>;
  /**
   * Optional: readRollups as a stream, handing each bucket to `visit` oldest first without
   * keeping them, so long reads make little garbage. The row handed over is only valid during
   * the call (an implementation may refill or share the same one, so it must not be changed).
   * Readers fall back to readRollups.
   */
  scanRollups?(
    series: SeriesKey,
    tier: Tier,
    fromMs: number,
    toMs: number,
    sections: readonly RollupSection[],
    visit: (row: RollupRow) => void,
    /** Sections whose median sketch the visitor needs (default all); others may come empty. */
    sketches?: readonly RollupSection[],
  ): Promise<void>;
  /**
   * Attribute-bucket history (bucket-history.ts): merges each observation into
   * its 10m, 1h and 1d rows, in one transaction. Written by the ingest side after a batch.
   */
  recordBucketObservations(observations: readonly BucketObservation[]): Promise<void>;
  /** Rows of one attribute bucket and tier with start in [fromMs, toMs), oldest first. */
  readBucketRollups(
    bucketId: string,
    tier: Tier,
    fromMs: number,
    toMs: number,
  ): Promise<BucketRollup[]>;
  /** Deletes at most `maxRows` attribute rows of `tier` that END at or before `beforeMs`. */
  deleteBucketRollupsBefore(tier: Tier, beforeMs: number, maxRows: number): Promise<number>;
  /** Units sold per bucket with start in [fromMs, toMs), oldest first; no-sale buckets absent. */
  readSaleCounts(series: SeriesKey, tier: Tier, fromMs: number, toMs: number): Promise<SaleCount[]>;
  /**
   * One short step of a retention pass: deletes buckets of `tier` that END at or before
   * `beforeMs`, stopping after about `maxRows` deletions. Pass the returned cursor back (null
   * starts a pass) until it comes back null.
   */
  deleteRollupsBefore(
    tier: Tier,
    beforeMs: number,
    step: { cursor: string | null; maxRows: number },
  ): Promise<CompactionStep>;
  /**
   * Optional (compact storage): one short step of a packing pass over `tier`, storing the
   * buckets of periods that END at or before `beforeMs` in the implementation's compact form.
   * Reads cannot tell, and late data for a packed bucket still merges. `maxRows` bounds the
   * buckets packed; `deleted` counts them. Same cursor protocol.
   */
  packBefore?(
    tier: Tier,
    beforeMs: number,
    step: { cursor: string | null; maxRows: number },
  ): Promise<CompactionStep>;
}
