/**
 * One snapshot per (game, item, market, side, fetchedAt) in a batch: when several source names
 * land on the same item (a spliced Doppler phase falling back to its base, duplicate rows), their
 * ladders are merged. Snapshots of different fetch times stay separate, oldest first, so a
 * last-write-wins upsert keeps the newest.
 */
import type { SideSnapshot } from '../domain/quote.ts';
import { mergeLevels } from './levels.ts';

export function mergeSameSides(sides: readonly SideSnapshot[]): SideSnapshot[] {
  const byKey = new Map<string, SideSnapshot>();
  for (const side of sides) {
    const key = `${side.game}\u0000${side.itemId}\u0000${side.market}\u0000${side.side}\u0000${side.fetchedAt}`;
    const seen = byKey.get(key);
    byKey.set(key, seen ? combine(seen, side) : side);
  }
  return [...byKey.values()].sort((a, b) => a.fetchedAt - b.fetchedAt);
}

function combine(a: SideSnapshot, b: SideSnapshot): SideSnapshot {
  const levels = mergeLevels([...a.levels, ...b.levels], a.side);
  return {
    ...a,
    levels,
    listingCount:
      a.listingCount === null || b.listingCount === null ? null : a.listingCount + b.listingCount,
    totalQuantity: levels.reduce((sum, level) => sum + level.quantity, 0),
    sourceUpdatedAt: latest(a.sourceUpdatedAt, b.sourceUpdatedAt),
  };
}

function latest(a: number | null, b: number | null): number | null {
  if (a === null) return b;
  if (b === null) return a;
  return Math.max(a, b);
}
