import type { FetchFailure } from './fetch-failure.ts';
import type { Game } from './games.ts';
import type { MarketId } from './markets.ts';
import type { Cents } from './money.ts';
import type { SalesWindow, Side } from './observation.ts';

/** One price level in USD cents. `orders` is null when the source does not count orders. */
export interface Level {
  price: Cents;
  quantity: number;
  orders: number | null;
}

/**
 * The latest normalised state of one side of one market's book for one item.
 * `levels` are best first (asks cheapest first, bids highest first); empty means no quotes.
 */
export interface SideSnapshot {
  game: Game;
  itemId: string;
  market: MarketId;
  side: Side;
  levels: Level[];
  /** Asks: listings on the market; bids: buy orders. */
  listingCount: number | null;
  /** Sum of level quantities (units the side absorbs). */
  totalQuantity: number;
  fetchedAt: number;
  ingestedAt: number;
  sourceUpdatedAt: number | null;
  sourceTimeKind: string | null;
  originalCurrency: string;
}

export interface SaleRecord {
  game: Game;
  itemId: string;
  market: MarketId;
  price: Cents;
  quantity: number;
  soldAt: number;
  ingestedAt: number;
  originalCurrency: string;
}

export interface ListingRecord {
  game: Game;
  itemId: string;
  market: MarketId;
  listingId: string;
  price: Cents;
  floatValue: number | null;
  paintSeed: number | null;
  paintIndex: number | null;
  phase: string | null;
  inspectLink: string | null;
  stickers: string[];
  isStatTrak: boolean;
  fetchedAt: number;
  ingestedAt: number;
  originalCurrency: string;
}

/**
 * A market's own statistics of its sales over a trailing window (when it publishes no single
 * sales): the latest per (game, item, market, window) is kept. Prices are null when none sold.
 */
export interface SalesStatsRecord {
  game: Game;
  itemId: string;
  market: MarketId;
  window: SalesWindow;
  volume: number;
  minPrice: Cents | null;
  maxPrice: Cents | null;
  avgPrice: Cents | null;
  medianPrice: Cents | null;
  fetchedAt: number;
  ingestedAt: number;
  originalCurrency: string;
}

/** What one ingest cycle (or one import chunk) commits, in one transaction. */
export interface IngestBatch {
  sides: SideSnapshot[];
  sales: SaleRecord[];
  listings: ListingRecord[];
  /** Absent (or empty) for sources that publish no window statistics. */
  salesStats?: SalesStatsRecord[];
}

/** One market fetch as the runner measured it (drives latency, error rate and health bars). */
export interface FetchRecord {
  market: MarketId;
  game: Game;
  startedAt: number;
  fetchedAt: number;
  ingestedAt: number | null;
  ok: boolean;
  errorKind: 'retryable' | 'permanent' | null;
  observationCount: number;
  rejectedCount: number;
  /** What went wrong (also set on a successful poll that lost some of its requests). */
  failure: FetchFailure | null;
  /** One line on the failure (never a secret), at most FETCH_DETAIL_MAX characters. */
  detail: string | null;
  /** Observations whose item name is not in our catalog. */
  unmappedCount: number;
}

export const FETCH_DETAIL_MAX = 300;

export function emptyBatch(): IngestBatch {
  return { sides: [], sales: [], listings: [] };
}
