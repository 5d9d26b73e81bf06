/**
 * Everything the HTTP layer needs, as one typed object passed to `buildApp(deps)`. The
 * interfaces here are deliberately narrow: the real access service, fetch log and market
 * registry satisfy them directly or through a one-line adapter in the composition root.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { RateLimiter, QuotaLimits } from '../access/rate-limiter.ts';
import type { Book } from '../book/book.ts';
import type { Catalog } from '../catalog/catalog.ts';
import type { Clock } from '../domain/clock.ts';
import type { ErrorCode } from '../domain/errors.ts';
import type { Game } from '../domain/games.ts';
import type { MarketId } from '../domain/markets.ts';
import type { Feature, Plan } from '../domain/plans.ts';
import type { FetchRecord } from '../domain/quote.ts';
import type { FeeModel } from '../markets/fees.ts';
import type { HttpMetrics } from '../metrics/http-metrics.ts';
import type { HistoryStore } from '../store/history-store.ts';
import type { BulkLiquidityProvider } from '../liquidity/bulk-cache.ts';
import type { GameReads, SchemaProvider } from '../schema/provider.ts';
import type { TrustProxy } from '../access/trust-proxy.ts';
import type { PreparedPayload } from '../domain/prepared-payload.ts';
import type { StreamHub } from './stream/hub.ts';
import type { PositionFeed } from '../events/bus-positions.ts';
import type { StreamSlots } from '../access/stream-slots.ts';
import type { InventoryService } from '../inventory/service.ts';
import type { AlertService } from '../access/alerts/alert-service.ts';

export type { PreparedPayload };

export interface AuthSuccess {
  ok: true;
  /** The account, with its own limit of open streams when it has one. */
  account: { id: string; streamsOverride?: number | null };
  /** Effective plan (a trial key is 'developer'). */
  plan: Plan;
  limits: QuotaLimits;
}

export interface AuthFailure {
  ok: false;
  status: 401 | 403;
  code: ErrorCode;
  message: string;
}

export type AuthResult = AuthSuccess | AuthFailure;

/** Satisfied by `AccessService` from src/access. */
export interface Authenticator {
  authenticate(header: string | undefined, clientIp: string, now: number): Promise<AuthResult>;
  /** The answer without waiting when the key is cached; null when it needs a store read. */
  authenticateNow?(header: string | undefined, clientIp: string, now: number): AuthResult | null;
}

export interface PlanRefusal {
  status: 401 | 403;
  code: ErrorCode;
  message: string;
}

/** null when the plan includes the feature (src/access `checkPlan` fits). */
export type PlanGate = (plan: Plan, feature: Feature) => PlanRefusal | null;

/** Satisfied by `FetchLog` from src/ingest. */
export interface FetchHistory {
  /** Records of every game with startedAt >= sinceMs. */
  records(sinceMs: number): readonly FetchRecord[];
  /** Latest successful fetch, also when it is older than the record window. */
  lastSuccess?(market: MarketId, game: Game): FetchRecord | null;
}

/** Expected refresh cadence of a market, ms (health is judged against it). */
export type MarketCadence = (market: MarketId) => number;

export interface ItemsAllProvider {
  /** null until the first build finished. */
  current(): PreparedPayload | null;
}

export interface AppDeps {
  clock: Clock;
  catalogs: Readonly<Record<Game, Catalog>>;
  book: Book;
  authenticator: Authenticator;
  planGate: PlanGate;
  /** Per-account quota windows (minute + month). */
  limiter: RateLimiter;
  /** Per-IP limiter for keyless health (keyed `ip:<address>`). */
  healthLimiter: RateLimiter;
  fetchHistory: FetchHistory;
  marketCadence: MarketCadence;
  /**
   * Notes a read of one item as demand for the live connectors' per-item budgets. The catalogs
   * note every item a route resolves by name; a pricing read answered from the latest-body
   * cache resolves nothing, so that cache notes its hits here.
   */
  noteItemRead?: (game: Game, itemId: string, now: number) => void;
  /** Why a market is not polled in this configuration (health's `note`); default none. */
  marketNote?: (market: MarketId) => string | null;
  itemsAll: ItemsAllProvider;
  /** The pre-built bulk liquidity map; its routes answer 503 until it has one (or without it). */
  liquidityBulk?: BulkLiquidityProvider;
  /** The item schema (src/schema); its routes answer 503 without it or before its first build. */
  schema?: SchemaProvider;
  /** The operator's game read switch: `/v2` reads of a disabled game answer 503. */
  gameReads?: GameReads;
  /** Markets polled for a game; defaults to MARKETS_BY_GAME. */
  marketsForGame?: (game: Game) => readonly MarketId[];
  /** Health requests per IP per minute (default 60). */
  healthPerMinute?: number;
  /** Terminal route requests per IP per minute (default 120). */
  terminalPerMinute?: number;
  /** Pino-compatible logger; silent when absent. */
  logger?: FastifyBaseLogger;
  /** One info line per request (access-log.ts); off by default. */
  accessLog?: boolean;
  /** Which peers may name the client in X-Forwarded-For (access/trust-proxy.ts; default false). */
  trustProxy?: TrustProxy;
  /** Serve /openapi.json and /docs (default true). */
  docs?: boolean;
  /** Fee model behind NBBO, recommendations and arbitrage (default DEFAULT_FEE_MODEL). */
  feeModel?: FeeModel;
  /** Stored price history (rollups); history and market analytics answer 503 without it. */
  history?: HistoryStore;
  /** Request latency and quota refusals for the metrics endpoint; nothing is measured without. */
  metrics?: HttpMetrics;
  /** The price streams' hub; buildApp makes its own when absent (stream/hub.ts). */
  streamHub?: StreamHub;
  /** How long stream events stay replayable (default 10 min). */
  streamReplayMs?: number;
  /** Open streams per account; default counted in this process (access/stream-slots.ts). */
  streamSlots?: StreamSlots;
  /** Scaled out: stream positions from the shared change bus (events/bus-positions.ts). */
  streamPositions?: PositionFeed;
  /** The hub's tick period (default 1 s; 0: the caller ticks it, as tests with a manual clock do). */
  streamTickMs?: number;
  /** Steam inventory fetches and snapshots; the inventory routes answer 503 without it. */
  inventory?: InventoryService;
  /** Price alerts with webhooks; the alert routes answer 503 without it. */
  alerts?: AlertService;
  /** Answer latest-state cache hits in front of Fastify (read-cache/fast-reads.ts; default true). */
  fastReads?: boolean;
}
