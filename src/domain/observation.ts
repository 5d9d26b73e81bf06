import type { Game } from './games.ts';
import type { MarketId } from './markets.ts';

/**
 * What an adapter (or `pricing import`) hands to ingest: prices still in the source's units.
 * A price means `price / scale` major units of `currency` (scale 100 = cents, 1000 = milli).
 * `item` is the source's own name for the item; ingest resolves it against the catalog.
 * Times are ms epoch.
 */
export interface ObservationBase {
  game: Game;
  market: MarketId;
  item: string;
  currency: string;
  scale: number;
}

export interface RawLevel {
  price: number;
  quantity: number;
  orders: number | null;
}

/** A full snapshot of one side of one market's book for one item (replaces the previous one). */
export interface BookObservation extends ObservationBase {
  kind: 'book';
  side: Side;
  levels: RawLevel[];
  /** Asks: listings behind the side; bids: orders. null when the source does not say. */
  listingCount: number | null;
  fetchedAt: number;
  sourceUpdatedAt: number | null;
  sourceTimeKind: string | null;
}

export interface SaleObservation extends ObservationBase {
  kind: 'sale';
  price: number;
  quantity: number;
  soldAt: number;
}

export const SALES_WINDOWS = ['24h', '7d', '30d', '90d'] as const;
export type SalesWindow = (typeof SALES_WINDOWS)[number];

/**
 * What a market says about its own sales over a trailing window when it publishes no single
 * sales (Skinport's `/v1/sales/history`): units sold and price statistics, null when none sold.
 */
export interface SalesStatsObservation extends ObservationBase {
  kind: 'sales_stats';
  window: SalesWindow;
  volume: number;
  min: number | null;
  max: number | null;
  avg: number | null;
  median: number | null;
  fetchedAt: number;
}

export interface ListingObservation extends ObservationBase {
  kind: 'listing';
  listingId: string;
  price: number;
  floatValue: number | null;
  paintSeed: number | null;
  paintIndex: number | null;
  /** Doppler phase or gem label as the source gives it ("Phase 2", "Ruby"), else null. */
  phase: string | null;
  inspectLink: string | null;
  stickers: string[];
  isStatTrak: boolean;
  fetchedAt: number;
}

export type Observation =
  BookObservation | SaleObservation | ListingObservation | SalesStatsObservation;
export type Side = 'ask' | 'bid';
