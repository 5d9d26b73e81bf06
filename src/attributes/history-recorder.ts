/**
 * Bucket history on the ingest side: a store whose writeBatch, once the batch is committed,
 * derives the buckets of every (item, market) whose listings the batch carries (a batch's
 * listings of a pair are that market's latest snapshot of it, as in the book) and records one
 * observation per bucket through the HistoryStore port. Bids come from the same batch or the
 * latest bid side seen before. Change-only: a bucket whose ask, bid and counts are unchanged
 * within its 10-minute bucket is not observed again.
 */
import type { Catalog } from '../catalog/catalog.ts';
import type { CatalogItem } from '../domain/item.ts';
import type { MarketId } from '../domain/markets.ts';
import type { IngestBatch, ListingRecord, SideSnapshot } from '../domain/quote.ts';
import { bucketStart } from '../pricing/rollup-buckets.ts';
import type { HistoryStore } from '../store/history-store.ts';
import type { PriceStore } from '../store/price-store.ts';
import type { BucketObservation } from '../store/bucket-history.ts';
import { BUCKET_MARKETS, deriveBuckets } from './buckets.ts';

const pairKey = (itemId: string, market: MarketId) => `${itemId}\u0000${market}`;

export class BucketObserver {
  private readonly bids = new Map<string, SideSnapshot>();
  private readonly lastSeen = new Map<string, string>();
  private window = 0;

  constructor(private readonly catalog: Catalog) {}

  /** Observations of every bucket the batch's listings make, changed ones only. */
  observe(batch: IngestBatch): BucketObservation[] {
    for (const side of batch.sides) this.noteBid(side);
    const groups = new Map<
      string,
      { item: CatalogItem; market: MarketId; listings: ListingRecord[] }
    >();
    for (const listing of batch.listings) {
      if (listing.game !== 'cs2' || !BUCKET_MARKETS.includes(listing.market)) continue;
      const item = this.baseOf(listing.itemId);
      if (!item) continue;
      const key = pairKey(item.id, listing.market);
      const group = groups.get(key) ?? { item, market: listing.market, listings: [] };
      group.listings.push(listing);
      groups.set(key, group);
    }
    const out: BucketObservation[] = [];
    for (const [key, group] of groups) {
      const bid = this.bids.get(key) ?? null;
      for (const bucket of deriveBuckets({ ...group, bid })) {
        const observation: BucketObservation = {
          bucketId: bucket.bucketId,
          at: bucket.sourceUpdatedAt,
          askCents: bucket.askCents,
          bidCents: bucket.bidCents,
          askListingCount: bucket.askListingCount,
          bidOrderCount: bucket.bidOrderCount,
        };
        if (this.isChanged(observation)) out.push(observation);
      }
    }
    return out;
  }

  private noteBid(side: SideSnapshot): void {
    if (side.game !== 'cs2' || side.side !== 'bid' || !BUCKET_MARKETS.includes(side.market)) {
      return;
    }
    const key = pairKey(side.itemId, side.market);
    const held = this.bids.get(key);
    if (!held || held.fetchedAt <= side.fetchedAt) this.bids.set(key, side);
  }

  private baseOf(itemId: string): CatalogItem | undefined {
    const item = this.catalog.byId(itemId);
    return item?.variantOf === undefined ? item : this.catalog.byId(item.variantOf);
  }

  private isChanged(observation: BucketObservation): boolean {
    const window = bucketStart(observation.at, '10m');
    if (window > this.window) {
      this.window = window;
      this.lastSeen.clear();
    }
    const { askCents, bidCents, askListingCount, bidOrderCount } = observation;
    const signature = `${window}:${askCents}:${bidCents}:${askListingCount}:${bidOrderCount}`;
    if (this.lastSeen.get(observation.bucketId) === signature) return false;
    this.lastSeen.set(observation.bucketId, signature);
    return true;
  }
}

type WritingStore = Pick<PriceStore, 'writeBatch'>;
type BucketSink = Pick<HistoryStore, 'recordBucketObservations'>;

/** `store` with a writeBatch that also records the batch's bucket observations in `history`. */
export function withBucketHistory<S extends WritingStore>(
  store: S,
  history: BucketSink,
  catalog: Catalog,
): S {
  const observer = new BucketObserver(catalog);
  return {
    ...store,
    async writeBatch(batch: IngestBatch) {
      const counts = await store.writeBatch(batch);
      if (batch.listings.length > 0) {
        await history.recordBucketObservations(observer.observe(batch));
      }
      return counts;
    },
  };
}
