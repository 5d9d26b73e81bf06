/**
 * A live connector is data plus pure functions: `info` (who the market is, its units, cadence,
 * published request limits, capabilities, credentials, docs), `requests` (the requests of one
 * poll, built from the poll context alone) and one pure `parse` per response kind, which turns
 * a body into observations in the market's own units, rejections, and the follow-up requests
 * of a paginated poll. The I/O around them is shared (`live/connector-adapter.ts`).
 */
import type { FetchFailure } from '../domain/fetch-failure.ts';
import type { Game } from '../domain/games.ts';
import type { ParseResult, MarketInfo } from './market-adapter.ts';
import type { RequestLimit } from './http/market-http.ts';

export interface Credential {
  /** Environment variable that holds it (never the markets file, never logged). */
  env: string;
  /** Without it the connector does not poll at all (`auth` in health); else it only does less. */
  required: boolean;
  purpose: string;
}

export interface ConnectorInfo extends MarketInfo {
  /** The API origin (scheme, host, optional path prefix); `baseUrl` in the markets file overrides it. */
  baseUrl: string;
  /** Published (or, where none is published, conservative observed) limits of the origin. */
  limits: readonly RequestLimit[];
  credentials: readonly Credential[];
  /** What the market table of docs/markets.md says this connector supplies, in a few words. */
  supplies: string;
}

export type QueryValue = string | number | readonly string[];

export interface ConnectorRequest {
  /** Which parser reads the response. */
  kind: string;
  game: Game;
  method: 'GET' | 'POST';
  /** Path below the base URL, starting with `/`. */
  path: string;
  query?: Readonly<Record<string, QueryValue>>;
  headers?: Readonly<Record<string, string>>;
  /** JSON request body (serialised once, so a signature covers the exact bytes sent). */
  body?: unknown;
  /** Query parameters or headers whose values are secrets (kept out of labels and logs). */
  secret?: readonly string[];
  expect?: 'json' | 'text';
  timeoutMs?: number;
  maxBytes?: number;
  /** Revalidate with ETag / If-Modified-Since (GET only). */
  conditional?: boolean;
  /** Anything the parser needs to know about what was asked (an item name, a page number). */
  meta?: Readonly<Record<string, string | number>>;
}

export interface PollContext {
  game: Game;
  now: number;
  /** Values of the connector's credentials that are set, keyed by env name. */
  credentials: Readonly<Record<string, string>>;
  /**
   * Item names of this game, most wanted first: what API users asked for recently, then the
   * most listed items. Connectors with per-item endpoints spend their budget down this list.
   */
  priorities: readonly string[];
  /** What earlier polls' parsers asked to remember (e.g. Steam's item_nameid per name). */
  memory: ReadonlyMap<string, string>;
}

export interface ParseContext {
  game: Game;
  /** When the response arrived: the observations' `fetchedAt`. */
  now: number;
  request: ConnectorRequest;
}

export interface PageResult extends ParseResult {
  /** Follow-up requests of the same poll (the next page, a detail request). */
  next?: ConnectorRequest[];
  /** Facts for later polls, merged into `PollContext.memory`. */
  remember?: Readonly<Record<string, string>>;
  /**
   * The upstream refused in its body what its status called success (e.g. Buff's
   * `"Login Required"` with HTTP 200): reported like a failed request of that kind.
   */
  failure?: { kind: FetchFailure; detail: string };
}

export type ResponseParser = (body: unknown, ctx: ParseContext) => PageResult;

export interface SigningContext {
  credentials: Readonly<Record<string, string>>;
  now: number;
  method: string;
  /** Path and query exactly as sent, e.g. `/marketplace-api/v1/aggregated-prices?x=1`. */
  pathWithQuery: string;
  body: string;
}

/** A failed request as the shared HTTP client classified it. */
export interface RequestFailure {
  kind: FetchFailure;
  status: number | null;
  detail: string;
}

export interface Connector {
  readonly info: ConnectorInfo;
  requests(ctx: PollContext): ConnectorRequest[];
  readonly parsers: Readonly<Record<string, ResponseParser>>;
  /**
   * A market-specific reading of a failed request (e.g. CSFloat's "Disable your VPN" 403 is
   * a refusal of this address, not of the key); null keeps the client's kind.
   */
  reclassify?(request: ConnectorRequest, failure: RequestFailure): PageResult['failure'] | null;
  /** Extra headers computed at send time (request signatures). Pure given its context. */
  sign?(ctx: SigningContext): Record<string, string>;
  /** Upper bound on requests per poll, pagination included (default 50). */
  readonly maxRequestsPerPoll?: number;
}
