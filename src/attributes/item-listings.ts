/**
 * The held listings of an item as users mean it: its own, plus, for a Doppler / Gamma Doppler
 * base item, those markets filed under its phase names (Buff163 and CSFloat name a listing by
 * its phase). De-duplicated by market and listing id.
 */
import type { Book } from '../book/book.ts';
import type { Catalog } from '../catalog/catalog.ts';
import type { CatalogItem } from '../domain/item.ts';
import type { ListingRecord } from '../domain/quote.ts';

export function itemListings(book: Book, catalog: Catalog, item: CatalogItem): ListingRecord[] {
  const ids = [item.id];
  for (const variant of item.variants ?? []) {
    const entry = catalog.byName(variant.marketHashName);
    if (entry) ids.push(entry.id);
  }
  if (ids.length === 1) return book.listings(item.game, item.id);
  const seen = new Set<string>();
  const out: ListingRecord[] = [];
  for (const id of ids) {
    for (const listing of book.listings(item.game, id)) {
      const key = `${listing.market}:${listing.listingId}`;
      if (seen.has(key)) continue;
      seen.add(key);
      out.push(listing);
    }
  }
  return out;
}
