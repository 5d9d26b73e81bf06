/**
 * The listings response (pure, `now` an argument): the held listings of an item (and, for a
 * Doppler / Gamma Doppler base item, of its phase variants) on the selected markets, cheapest
 * first, at most `limit`; listings not seen within `maxAgeMs` are gone from their market and
 * left out. Field set from ../shared/reference/service-conventions.md (listings). Rust items
 * carry no float, seed, paint index or stickers, whatever a source sent.
 */
import type { CatalogItem } from '../domain/item.ts';
import type { MarketId } from '../domain/markets.ts';
import type { ListingRecord, SideSnapshot } from '../domain/quote.ts';
import type { MarketSelection } from '../pricing/top-of-book.ts';

export const DEFAULT_LISTINGS_LIMIT = 500;
export const MAX_LISTINGS_LIMIT = 2000;

export interface ListingsInput {
  item: CatalogItem;
  listings: readonly ListingRecord[];
  /** The item's ask sides (their listing counts are the markets' totals). */
  asks: readonly SideSnapshot[];
  selection: MarketSelection;
  limit: number;
  now: number;
  maxAgeMs: number;
}

function isSelected(selection: MarketSelection, market: MarketId): boolean {
  return selection.markets === null || selection.markets.has(market);
}

function served(listing: ListingRecord, rust: boolean) {
  return {
    listingId: listing.listingId,
    market: listing.market,
    price: listing.price,
    currency: 'USD' as const,
    floatValue: rust ? null : listing.floatValue,
    paintSeed: rust ? null : listing.paintSeed,
    paintIndex: rust ? null : listing.paintIndex,
    inspectLink: listing.inspectLink,
    stickers: rust ? [] : listing.stickers,
    isStatTrak: rust ? false : listing.isStatTrak,
    fetchedAt: new Date(listing.fetchedAt).toISOString(),
  };
}

type Served = ReturnType<typeof served>;

function cheapestFirst(a: Served, b: Served): number {
  if (a.price !== b.price) return a.price - b.price;
  if (a.market !== b.market) return a.market < b.market ? -1 : 1;
  return a.listingId < b.listingId ? -1 : a.listingId > b.listingId ? 1 : 0;
}

function floatCoverage(sample: readonly Served[]) {
  const withFloat = sample.filter((listing) => listing.floatValue !== null);
  const markets = [...new Set(sample.map((listing) => listing.market))].sort();
  const floatMarkets = new Set(withFloat.map((listing) => listing.market));
  const coverage =
    withFloat.length === 0 ? 'none' : withFloat.length === sample.length ? 'complete' : 'partial';
  return {
    coverage: coverage as 'none' | 'partial' | 'complete',
    sampledListings: sample.length,
    listingsWithFloat: withFloat.length,
    marketsWithFloat: markets.filter((market) => floatMarkets.has(market)),
    marketsWithoutFloat: markets.filter((market) => !floatMarkets.has(market)),
  };
}

function floatSummary(item: CatalogItem, sample: readonly Served[]) {
  let lowest: Served | null = null;
  let highest = -Infinity;
  for (const listing of sample) {
    if (listing.floatValue === null) continue;
    if (lowest === null || listing.floatValue < lowest.floatValue!) lowest = listing;
    highest = Math.max(highest, listing.floatValue);
  }
  if (lowest === null) return null;
  return {
    observed: { min: lowest.floatValue!, max: highest },
    itemMin: item.floatRange?.min ?? null,
    itemMax: item.floatRange?.max ?? null,
    observedSource: { market: lowest.market, price: lowest.price, fetchedAt: lowest.fetchedAt },
  };
}

function totalListings(input: ListingsInput, sample: readonly Served[]): number {
  const held = new Map<MarketId, number>();
  for (const listing of sample) held.set(listing.market, (held.get(listing.market) ?? 0) + 1);
  for (const ask of input.asks) {
    if (!isSelected(input.selection, ask.market) || ask.levels.length === 0) continue;
    const count = ask.listingCount ?? ask.totalQuantity;
    held.set(ask.market, Math.max(held.get(ask.market) ?? 0, count));
  }
  let total = 0;
  for (const count of held.values()) total += count;
  return total;
}

export function listingsResponse(input: ListingsInput) {
  const rust = input.item.game === 'rust';
  const oldest = input.now - input.maxAgeMs;
  const sample = input.listings
    .filter((listing) => isSelected(input.selection, listing.market) && listing.fetchedAt >= oldest)
    .map((listing) => served(listing, rust))
    .sort(cheapestFirst);
  return {
    marketHashName: input.item.marketHashName,
    canonicalItemId: input.item.id,
    totalListings: totalListings(input, sample),
    sampledListings: sample.length,
    floatCoverage: floatCoverage(sample),
    floatSummary: rust ? null : floatSummary(input.item, sample),
    listings: sample.slice(0, input.limit),
    calculatedAt: new Date(input.now).toISOString(),
  };
}
