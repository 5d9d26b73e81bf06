/**
 * What a market's folder tells the simulator (`src/markets/<id>/sim.ts`): its profile (how the
 * simulated market behaves and what its upstream's answers carry) and a writer that turns one
 * snapshot into the answers of one complete poll, each beside the request it answers, in the
 * upstream's own shape. The simulated adapter reads them with the market's live parsers.
 */
import type { Game } from '../../domain/games.ts';
import type { MarketId } from '../../domain/markets.ts';
import type { RawLevel } from '../../domain/observation.ts';
import type { ConnectorRequest } from '../connector.ts';
import type { SimItem } from './items.ts';
import type { SimListing } from './listings.ts';

export interface SimProfile {
  /** Top ask as a multiple of the item's true price (Buff cheap, Steam ~17% dear). */
  askLevel: number;
  /** Top bid as a multiple of true price; null on markets without buy orders. */
  bidLevel: number | null;
  /** Share of the catalog listed at full popularity. */
  coverage: number;
  /** Scales the item's daily sales rate. */
  salesShare: number;
  /** Whether the answers carry several ask levels or only the best price. */
  ladder: boolean;
  /** Whether the asks say how many are listed. */
  listingCounts: boolean;
  /** Whether ladder levels carry an order count. */
  countsOrders: boolean;
  /** How old the upstream export can be. */
  cacheMs: number;
  outagesPerDay: number;
  /** Typical response time of one full fetch. */
  latencyMs: number;
  /** Whether the market quotes Doppler phases as items of their own. */
  quotesPhases: boolean;
  /** The source time the parser sets on books (its `sourceTimeKind`), null when none. */
  sourceTime: string | null;
  /** Whether single sales are sent (false: none, or only statistics over a window). */
  singleSales: boolean;
  /**
   * The window sales statistics cover (Steam's and Skinport's 24 hours): a row's sales are
   * those of this window before the data time; 0 when the market sends no statistics (a row's
   * sales are then those of the last poll window).
   */
  statsWindowMs: number;
}

export interface NativeSale {
  price: number;
  quantity: number;
  soldAt: number;
}

export interface SimQuote {
  ask: RawLevel[];
  listingCount: number;
  /** null on a market without buy orders. */
  bid: RawLevel[] | null;
  orderCount: number | null;
}

export interface SimRow {
  item: SimItem;
  quote: SimQuote;
  sales: NativeSale[];
  listings: SimListing[] | null;
}

export interface SimSnapshot {
  market: MarketId;
  game: Game;
  currency: string;
  scale: number;
  /** The moment the data describes (export caches and slow spells make it older than now). */
  dataTime: number;
  rows: SimRow[];
}

/** One simulated answer and the request it answers (which its parser reads). */
export interface SimPage {
  request: ConnectorRequest;
  body: unknown;
}

export interface SimMarket {
  profile: SimProfile;
  /** The answers a complete poll would receive, in the upstream's shape. */
  pages(snapshot: SimSnapshot): SimPage[];
}
