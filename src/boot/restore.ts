/** Rebuilds the in-memory book from the durable store at boot (after a restart or a kill -9). */
import type { Book } from '../book/book.ts';
import { DAY } from '../domain/clock.ts';
import { GAMES } from '../domain/games.ts';
import type { PriceStore } from '../store/price-store.ts';

export const SALES_IN_MEMORY_MS = 90 * DAY;

export async function restoreBook(
  store: Pick<PriceStore, 'loadSides' | 'loadSales' | 'loadListings' | 'loadSalesStats'>,
  book: Book,
  now: number,
) {
  const counts = { sides: 0, sales: 0, listings: 0, salesStats: 0 };
  for (const game of GAMES) {
    const sides = await store.loadSides(game);
    const sales = await store.loadSales(game, now - SALES_IN_MEMORY_MS);
    const listings = await store.loadListings(game);
    const salesStats = await store.loadSalesStats(game);
    book.apply({ sides, sales, listings, salesStats });
    counts.salesStats += salesStats.length;
    counts.sides += sides.length;
    counts.sales += sales.length;
    counts.listings += listings.length;
  }
  return counts;
}
