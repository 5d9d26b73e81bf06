/**
 * The terminal's reads, typed with the server's own TypeBox schemas (type-only imports: nothing
 * of the server is bundled). Only the keyless /terminal/api routes are called; a 429 becomes a
 * RateLimited error carrying Retry-After so views can back off.
 */
import type { Static } from '@sinclair/typebox';
import type { History, HistoryByMarket } from '../http/schemas/history.ts';
import type { Snapshot } from '../http/schemas/inventory.ts';
import type { ItemBuckets } from '../terminal/buckets.ts';
import type {
  ArbitrageView,
  ItemView,
  MarketsBoard,
  SearchResults,
  TerminalInterval,
} from '../terminal/schemas.ts';

export type Game = 'cs2' | 'rust';
export type ItemData = Static<typeof ItemView>;
export type SearchData = Static<typeof SearchResults>;
export type BoardData = Static<typeof MarketsBoard>;
export type ArbitrageData = Static<typeof ArbitrageView>;
export type HistoryData = Static<typeof History>;
export type HistoryByMarketData = Static<typeof HistoryByMarket>;
export type BucketsData = Static<typeof ItemBuckets>;
export type InventoryData = Static<typeof Snapshot>;
export type ListingType = 'SELL_OFFER' | 'BUY_ORDER' | 'SALE_HISTORY';

export class RateLimited extends Error {
  constructor(readonly retryAfterSeconds: number) {
    super(`rate limited, retry in ${retryAfterSeconds}s`);
  }
}

export class ApiFailure extends Error {}

async function read<T>(path: string, params: Record<string, string>): Promise<T> {
  return answer<T>(
    await fetch(`/terminal/api/${path}?${new URLSearchParams(params)}`, {
      headers: { Accept: 'application/json' },
    }),
  );
}

async function send<T>(path: string, body: unknown): Promise<T> {
  return answer<T>(
    await fetch(`/terminal/api/${path}`, {
      method: 'POST',
      headers: { Accept: 'application/json', 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    }),
  );
}

async function answer<T>(response: Response): Promise<T> {
  if (response.status === 429) {
    throw new RateLimited(Number(response.headers.get('Retry-After') ?? '10'));
  }
  if (!response.ok) {
    const body = (await response.json().catch(() => null)) as { message?: unknown } | null;
    throw new ApiFailure(String(body?.message ?? `HTTP ${response.status}`));
  }
  return (await response.json()) as T;
}

export const api = {
  search: (game: Game, q: string) => read<SearchData>('search', { game, q }),
  item: (game: Game, name: string) => read<ItemData>('item', { game, name }),
  history: (game: Game, name: string, interval: TerminalInterval, listingType: ListingType) =>
    read<HistoryData>('history', { game, name, interval, listingType }),
  historyByMarket: (game: Game, name: string, interval: TerminalInterval) =>
    read<HistoryByMarketData>('history/markets', {
      game,
      name,
      interval,
      listingType: 'SELL_OFFER',
    }),
  buckets: (name: string) => read<BucketsData>('buckets', { name }),
  markets: (game: Game) => read<BoardData>('markets', { game }),
  arbitrage: () => read<ArbitrageData>('arbitrage', {}),
  startInventory: (steamId: string, game: Game) =>
    send<InventoryData>('inventory', { steamId, game }),
  inventory: (id: string) => read<InventoryData>(`inventory/${encodeURIComponent(id)}`, {}),
};
