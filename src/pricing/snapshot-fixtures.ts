/** Test fixtures: book sides in USD cents, for the pricing and HTTP tests. */
import type { MarketSides } from '../book/book.ts';
import type { Game } from '../domain/games.ts';
import type { MarketId } from '../domain/markets.ts';
import type { Level, SideSnapshot } from '../domain/quote.ts';

export interface SideSpec {
  market: MarketId;
  prices: number[];
  fetchedAt: number;
  ingestedAt?: number;
  listingCount?: number | null;
  quantity?: number;
  itemId?: string;
  game?: Game;
  sourceUpdatedAt?: number | null;
  sourceTimeKind?: string | null;
}

function levels(prices: number[], quantity: number): Level[] {
  return prices.map((price) => ({ price, quantity, orders: quantity }));
}

export function side(kind: 'ask' | 'bid', spec: SideSpec): SideSnapshot {
  const quantity = spec.quantity ?? 1;
  const built = levels(spec.prices, quantity);
  return {
    game: spec.game ?? 'cs2',
    itemId: spec.itemId ?? 'item-1',
    market: spec.market,
    side: kind,
    levels: built,
    listingCount: spec.listingCount === undefined ? built.length * quantity : spec.listingCount,
    totalQuantity: built.length * quantity,
    fetchedAt: spec.fetchedAt,
    ingestedAt: spec.ingestedAt ?? spec.fetchedAt + 250,
    sourceUpdatedAt: spec.sourceUpdatedAt ?? null,
    sourceTimeKind: spec.sourceTimeKind ?? null,
    originalCurrency: 'USD',
  };
}

export const ask = (spec: SideSpec) => side('ask', spec);
export const bid = (spec: SideSpec) => side('bid', spec);

/** Groups sides into the book's per-market shape. */
export function marketSides(sides: readonly SideSnapshot[]): MarketSides[] {
  const byMarket = new Map<MarketId, MarketSides>();
  for (const entry of sides) {
    let held = byMarket.get(entry.market);
    if (!held) byMarket.set(entry.market, (held = { market: entry.market, ask: null, bid: null }));
    held[entry.side] = entry;
  }
  return [...byMarket.values()];
}
