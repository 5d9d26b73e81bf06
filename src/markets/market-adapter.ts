/**
 * The MarketAdapter port: every source of quotes (real market, simulator) enters through it.
 * An adapter is mostly data (`info`) plus a pure `parse`; `fetchRaw` is the thin I/O part.
 * Errors are AdapterError: `retryable` ones back off and retry, permanent ones disable the
 * market for the game until restart.
 */
import type { FetchFailure } from '../domain/fetch-failure.ts';
import type { Game } from '../domain/games.ts';
import type { MarketId } from '../domain/markets.ts';
import type { Observation } from '../domain/observation.ts';

export interface MarketCapabilities {
  asks: boolean;
  bids: boolean;
  sales: boolean;
  listings: boolean;
  floats: boolean;
}

export interface MarketInfo {
  id: MarketId;
  displayName: string;
  games: readonly Game[];
  /** Native quote currency and the scale of its numbers (100 = cents, 1000 = milli-units). */
  currency: string;
  scale: number;
  /** Expected refresh cadence: health is judged against it. */
  cadenceMs: number;
  capabilities: MarketCapabilities;
  /** Upstream documentation the parser follows. */
  docsUrl: string | null;
}

export interface FetchContext {
  game: Game;
  now: number;
  signal?: AbortSignal;
}

export interface Rejection {
  reason:
    'absurd_price' | 'negative_price' | 'wrong_unit' | 'stale_fx' | 'malformed' | 'unknown_item';
  detail: string;
}

export interface ParseResult {
  observations: Observation[];
  rejected: Rejection[];
  /** Set when part of a multi-request poll failed: the rest was still delivered. */
  partial?: { kind: FetchFailure; detail: string };
}

export interface MarketAdapter {
  readonly info: MarketInfo;
  /** Fetches the raw upstream body for one game (throws AdapterError). */
  fetchRaw(ctx: FetchContext): Promise<unknown>;
  /** Pure: raw body to observations in native units. Never throws on bad input. */
  parse(body: unknown, ctx: FetchContext): ParseResult;
}

export class AdapterError extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
    readonly kind: FetchFailure = 'internal',
  ) {
    super(message);
  }
}

/** A failure the market simulator stages (an outage, a 429 or 502 minute): not a real one. */
export class SimulatedFailure extends AdapterError {}
