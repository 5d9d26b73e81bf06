/**
 * Rebuilds the in-memory book from the durable store at boot (after a restart or a kill -9).
 * Sides and sales stream into the book a chunk at a time, so the restore never holds every
 * stored record (hundreds of thousands) in one array beside the book that keeps them.
 */
import type { Book } from '../book/book.ts';
import { DAY } from '../domain/clock.ts';
import { GAMES } from '../domain/games.ts';
import type { PriceStore } from '../store/price-store.ts';

export const SALES_IN_MEMORY_MS = 90 * DAY;

export type RestoreSource = Pick<
  PriceStore,
  'streamSides' | 'streamSales' | 'loadListings' | 'loadSalesStats'
>;

export async function restoreBook(store: RestoreSource, book: Book, now: number) {
  const counts = { sides: 0, sales: 0, listings: 0, salesStats: 0 };
  for (const game of GAMES) {
    counts.sides += await store.streamSides(game, (sides) =>
      book.apply({ sides, sales: [], listings: [] }),
    );
    counts.sales += await store.streamSales(game, now - SALES_IN_MEMORY_MS, (sales) =>
      book.apply({ sides: [], sales, listings: [] }),
    );
    const listings = await store.loadListings(game);
    const salesStats = await store.loadSalesStats(game);
    book.apply({ sides: [], sales: [], listings, salesStats });
    counts.salesStats += salesStats.length;
    counts.listings += listings.length;
  }
  return counts;
}
