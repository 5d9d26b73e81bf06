/**
 * The latest attribute buckets of every CS2 item on every bucket-supplying market, derived as
 * batches reach the book (one change event per applied batch, on ingest and on `api` processes
 * alike): the buckets of each touched item are derived again from that market's held
 * listings and its bid side (items holding no listings and no buckets are skipped, so a batch
 * of whole-catalog quotes costs a map lookup per item). A phase variant's listings count for
 * its base item too, so a Doppler's tag buckets show every phase whatever name the market filed
 * them under.
 */
import type { Book, BookChange } from '../book/book.ts';
import type { Catalog } from '../catalog/catalog.ts';
import type { CatalogItem } from '../domain/item.ts';
import type { MarketId } from '../domain/markets.ts';
import { BUCKET_MARKETS, deriveBuckets, type AttributeBucket } from './buckets.ts';
import { itemListings } from './item-listings.ts';

export interface MarketBuckets {
  market: MarketId;
  buckets: AttributeBucket[];
  /** Newest ingestedAt behind the buckets (when they were collected), ms. */
  collectedAt: number;
}

export class AttributeBook {
  private readonly byItem = new Map<string, Map<MarketId, MarketBuckets>>();
  private sortedIds: string[] | null = null;
  private changes = 0;
  private readonly unsubscribe: () => void;

  constructor(
    private readonly book: Book,
    private readonly catalog: Catalog,
  ) {
    this.unsubscribe = book.onChange((change) => this.onChange(change));
    const bases = new Set(book.listedItemIds('cs2').map((id) => this.baseOf(id)?.id));
    for (const id of bases) if (id !== undefined) this.derive(id, BUCKET_MARKETS);
  }

  close(): void {
    this.unsubscribe();
  }

  /** Buckets of one item on each market that has some, in BUCKET_MARKETS order. */
  buckets(itemId: string): MarketBuckets[] {
    const held = this.byItem.get(itemId);
    return held ? BUCKET_MARKETS.flatMap((market) => held.get(market) ?? []) : [];
  }

  /** Counts the batches that derived buckets again: equal counts, equal buckets. */
  version(): number {
    return this.changes;
  }

  /** Ids of items with buckets on any market, ascending (a stable order for cursors). */
  itemIds(): readonly string[] {
    return (this.sortedIds ??= [...this.byItem.keys()].sort());
  }

  private onChange(change: BookChange): void {
    if (change.game !== 'cs2') return;
    const markets = BUCKET_MARKETS.filter((market) => change.markets.has(market));
    if (markets.length === 0) return;
    const bases = new Set<string>();
    for (const id of change.itemIds) {
      const base = this.baseOf(id);
      if (base && (this.byItem.has(base.id) || this.holdsListings(base))) bases.add(base.id);
    }
    for (const id of bases) this.derive(id, markets);
    if (bases.size > 0) this.changes += 1;
  }

  /** Whether the item or one of its phase variants holds listings (cheap: no copies). */
  private holdsListings(item: CatalogItem): boolean {
    if (this.book.listingCount('cs2', item.id) > 0) return true;
    return (item.variants ?? []).some((variant) => {
      const entry = this.catalog.byName(variant.marketHashName);
      return entry !== undefined && this.book.listingCount('cs2', entry.id) > 0;
    });
  }

  private baseOf(itemId: string): CatalogItem | undefined {
    const item = this.catalog.byId(itemId);
    return item?.variantOf === undefined ? item : this.catalog.byId(item.variantOf);
  }

  private derive(itemId: string, markets: readonly MarketId[]): void {
    const item = this.catalog.byId(itemId);
    if (!item) return;
    let held = this.byItem.get(itemId);
    const wasListed = held !== undefined;
    const all = itemListings(this.book, this.catalog, item);
    for (const market of markets) {
      const listings = all.filter((listing) => listing.market === market);
      const bid = this.book.marketSides('cs2', itemId, market)?.bid ?? null;
      const buckets = deriveBuckets({ market, item, listings, bid });
      if (buckets.length === 0) {
        held?.delete(market);
        continue;
      }
      if (!held) this.byItem.set(itemId, (held = new Map()));
      const collectedAt = listings.reduce((most, listing) => Math.max(most, listing.ingestedAt), 0);
      held.set(market, { market, buckets, collectedAt });
    }
    if (held && held.size === 0) this.byItem.delete(itemId);
    if (wasListed !== this.byItem.has(itemId)) this.sortedIds = null;
  }
}
