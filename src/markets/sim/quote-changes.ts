/**
 * When a market's quote for an item changes. Real books do not move on every poll: a popular
 * item's lowest ask is undercut or bought out every few minutes, a long-tail item's sits for
 * hours. Each (item, market) quote therefore holds between change events and shows, in between,
 * the book of its last change (prices, ladder shape, counts, and the native price at that
 * moment's exchange rate, as sellers price in their own currency).
 *
 * The mean time between changes is geometric in popularity: 3 minutes at popularity 1, 12 hours
 * at popularity 0 (about 27 minutes at 0.6, 3 hours at 0.25). Changes fall on a per-quote grid
 * of a quarter of that mean, each grid point changing with probability 1/4, from hashes of the
 * key and grid index, so any time can be recomputed and the live adapters and the backfill agree.
 * Over the full catalogs (popularity median 0.22, cubed uniform for items without a hint), a
 * poll finds changed about 1.4% of its quotes at a 1-minute cadence, 3% at 2 minutes, 7% at
 * 5, 12% at 10, 17% at 15 and 26% at 20: about 4,100 quote changes a minute over all
 * 290,000 (item, market) quotes, against every quote on every poll before.
 */
import { HOUR, MINUTE } from '../../domain/clock.ts';
import { mix, mix3, unit } from './random.ts';

const FASTEST_MS = 3 * MINUTE;
const SLOWEST_MS = 12 * HOUR;
const CHANCE = 0.25;
/** Grid points looked back at most (0.75^64 ≈ 1e-8: the walk virtually always ends on a change). */
const MAX_STEPS = 64;

/** Mean time between two changes of a quote of this popularity (0..1). */
export function meanChangeIntervalMs(popularity: number): number {
  const p = Math.min(1, Math.max(0, popularity));
  return FASTEST_MS * (SLOWEST_MS / FASTEST_MS) ** (1 - p);
}

/** The time of the quote's last change at or before `timeMs` (what it shows at `timeMs`). */
export function lastChangeAt(imKey: number, popularity: number, timeMs: number): number {
  const step = Math.round(meanChangeIntervalMs(popularity) * CHANCE);
  const offset = Math.floor(unit(mix(imKey, 120)) * step);
  const newest = Math.floor((timeMs + offset) / step);
  let index = newest;
  while (index > newest - MAX_STEPS && unit(mix3(imKey, 121, index)) >= CHANCE) index -= 1;
  return index * step - offset;
}
