/**
 * Queue position of a new one-unit listing at `askPrice` on one market's ask side: the units
 * listed at or below that price, which sell before it.
 *
 * - Below the market's best ask (or on a market with no asks): the front of the queue, 0.
 * - At or above it: the visible ladder's units priced at or below `askPrice`. Listings the
 *   market counts beyond its visible ladder (`listingCount` above the ladder's units) are priced
 *   at or above its last level; they count as ahead once `askPrice` is above that last level
 *   (at that point the listing waits behind the whole current supply).
 */
import type { Cents } from '../domain/money.ts';
import type { SideSnapshot } from '../domain/quote.ts';

/** Listings on the side: the market's own count when it gives one, else the ladder's units. */
export function activeListings(ask: SideSnapshot): number {
  return Math.max(ask.listingCount ?? 0, ask.totalQuantity);
}

export function queueAhead(ask: SideSnapshot | null, askPrice: Cents): number {
  const levels = ask?.levels ?? [];
  const best = levels[0];
  if (!ask || !best || askPrice < best.price) return 0;
  let ahead = 0;
  for (const level of levels) {
    if (level.price > askPrice) return ahead;
    ahead += level.quantity;
  }
  const last = levels[levels.length - 1]!;
  if (askPrice > last.price) return Math.max(ahead, activeListings(ask));
  return ahead;
}
