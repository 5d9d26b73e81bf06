/**
 * `pricing markets check`: one bounded round of real requests per checked market, through the
 * same HTTP client, connector, parsers and normalisation as `serve` (one ingest cycle per game
 * into a store and book that keep nothing), single attempts with the configured timeouts, and
 * the best-known example items as the per-item priorities. Each (market, game) reports whether
 * the upstream answered, its status, the time per request, rows parsed / unmapped / rejected,
 * one converted sample price, and the failure kind if any. A game passes when nothing failed,
 * no row came in an unexpected unit and at most half its rows were refused for reasons other
 * than an unknown name.
 */
import type { Catalog } from '../../catalog/catalog.ts';
import { iso, SECOND, type Clock } from '../../domain/clock.ts';
import type { FetchFailure } from '../../domain/fetch-failure.ts';
import type { FxTable } from '../../domain/fx.ts';
import type { Game } from '../../domain/games.ts';
import type { MarketId } from '../../domain/markets.ts';
import type { IngestBatch, SideSnapshot } from '../../domain/quote.ts';
import { runCycle } from '../../ingest/cycle.ts';
import { FX_MAX_AGE_MS } from '../../ingest/fx-refresher.ts';
import { resolveItem } from '../../catalog/resolve-item.ts';
import { DEFAULT_RETRY } from '../../markets/http/backoff.ts';
import { createMarketHttp } from '../../markets/http/http-client.ts';
import type { Transport } from '../../markets/http/undici-transport.ts';
import { ConnectorAdapter } from '../../markets/live/connector-adapter.ts';
import type { Rejection } from '../../markets/market-adapter.ts';
import type { LiveMarket } from '../../markets/live/markets-file.ts';
import { EXAMPLE_ITEMS } from '../backfill.ts';
import { credentialsFor } from '../market-plan.ts';
import { watchedTransport, type Exchange } from './watched-transport.ts';

export interface SamplePrice {
  item: string;
  side: 'ask' | 'bid';
  priceCents: number;
  originalCurrency: string;
}

export interface GameCheck {
  game: Game;
  passed: boolean;
  /** True when at least one request got an HTTP answer. */
  reachable: boolean;
  /** The first non-2xx status, else the last status (null without any answer). */
  status: number | null;
  requests: number;
  /** Mean time per request, ms (null when nothing was sent). */
  latencyMs: number | null;
  parsed: number;
  unmapped: number;
  rejected: number;
  sample: SamplePrice | null;
  failure: { kind: FetchFailure; detail: string | null } | null;
}

export interface MarketCheck {
  market: MarketId;
  baseUrl: string;
  passed: boolean;
  games: GameCheck[];
}

export interface CheckDeps {
  catalogs: Partial<Record<Game, Catalog>>;
  fx: FxTable;
  clock: Clock;
  transport: Transport;
  env: NodeJS.ProcessEnv;
  /** Replaces every request's timeout (else the markets file's, else the connector's). */
  timeoutMs: number | null;
}

/** Our own limiter cutting a round short says nothing about the market. */
const NOT_THE_MARKETS_FAULT: ReadonlySet<FetchFailure> = new Set(['budget']);
const QUEUE_LIMIT_MS = 10 * SECOND;

export async function checkMarket(live: LiveMarket, deps: CheckDeps): Promise<MarketCheck> {
  const { connector } = live;
  const market = connector.info.id;
  const seen: Exchange[] = [];
  const http = createMarketHttp({
    clock: deps.clock,
    transport: watchedTransport(deps.transport, seen),
    retry: { ...DEFAULT_RETRY, maxAttempts: 1 },
  });
  const adapter = new ConnectorAdapter({
    connector,
    channel: http.channel(market, { limits: connector.info.limits, maxQueueMs: QUEUE_LIMIT_MS }),
    baseUrl: live.baseUrl,
    cadenceMs: live.cadenceMs,
    credentials: credentialsFor(connector, deps.env),
    clock: deps.clock,
    timeoutMs: deps.timeoutMs ?? live.timeoutMs,
    priorities: (game) => examplesOf(deps.catalogs[game]),
  });
  const games: GameCheck[] = [];
  try {
    for (const game of connector.info.games) {
      const from = seen.length;
      const priced: SideSnapshot[] = [];
      const outcome = await runCycle(adapter, game, {
        catalogs: deps.catalogs,
        fx: () => deps.fx,
        fxMaxAgeMs: FX_MAX_AGE_MS,
        book: { apply: (batch) => priced.push(...pricedSides(batch)) },
        store: { writeBatch: async () => ({ sides: 0, sales: 0, listings: 0 }) },
        clock: deps.clock,
        onBookError: () => undefined,
      });
      const record = outcome.record;
      const failure = record.failure
        ? { kind: record.failure, detail: record.detail }
        : refusedRows(outcome.rejections, record.observationCount);
      games.push({
        game,
        passed: record.ok && (failure === null || NOT_THE_MARKETS_FAULT.has(failure.kind)),
        ...exchangeSummary(seen.slice(from)),
        parsed: record.observationCount,
        unmapped: record.unmappedCount,
        rejected: record.rejectedCount,
        sample: outcome.error ? null : samplePrice(priced, deps.catalogs[game]),
        failure,
      });
    }
  } finally {
    await http.close();
  }
  return { market, baseUrl: live.baseUrl, passed: games.every((g) => g.passed), games };
}

/** The example items this game's catalog knows, in their order. */
function examplesOf(catalog: Catalog | undefined): string[] {
  return catalog ? EXAMPLE_ITEMS.filter((name) => resolveItem(catalog, name)) : [];
}

/**
 * A row in another unit than the connector expects (a wrong currency), or more than half the
 * rows refused for other reasons than an unknown name: the body is not what the parser reads,
 * so the prices cannot be trusted even though some arrived.
 */
function refusedRows(rejections: readonly Rejection[], observed: number): GameCheck['failure'] {
  const refused = rejections.filter((rejection) => rejection.reason !== 'unknown_item');
  const unit = refused.find((rejection) => rejection.reason === 'wrong_unit');
  if (!unit && refused.length * 2 <= observed) return null;
  const first = unit ?? refused[0]!;
  return {
    kind: 'parse',
    detail: `${refused.length} of ${observed} rows refused; ${first.reason}: ${first.detail}`,
  };
}

function exchangeSummary(exchanges: readonly Exchange[]) {
  const answered = exchanges.filter((exchange) => exchange.status !== null);
  const refused = answered.find((exchange) => exchange.status! < 200 || exchange.status! >= 300);
  const total = exchanges.reduce((sum, exchange) => sum + exchange.ms, 0);
  return {
    reachable: answered.length > 0,
    status: (refused ?? answered.at(-1))?.status ?? null,
    requests: exchanges.length,
    latencyMs: exchanges.length === 0 ? null : Math.round(total / exchanges.length),
  };
}

/** The sides of a committed slice that carry a price (a check keeps them for its sample). */
function pricedSides(batch: IngestBatch): SideSnapshot[] {
  return batch.sides.filter((side) => side.levels.length > 0);
}

/** The first example item the poll priced (ask first), else the first priced item. */
export function samplePrice(
  priced: readonly SideSnapshot[],
  catalog: Catalog | undefined,
): SamplePrice | null {
  const wanted = EXAMPLE_ITEMS.map((name) => (catalog ? resolveItem(catalog, name)?.id : null));
  const rank = (itemId: string) => {
    const index = wanted.indexOf(itemId);
    return index < 0 ? wanted.length : index;
  };
  const best = [...priced].sort(
    (a, b) =>
      rank(a.itemId) - rank(b.itemId) || (a.side === 'ask' ? -1 : 1) - (b.side === 'ask' ? -1 : 1),
  )[0];
  if (!best) return null;
  return {
    item: catalog?.byId(best.itemId)?.marketHashName ?? best.itemId,
    side: best.side === 'ask' ? 'ask' : 'bid',
    priceCents: best.levels[0]!.price,
    originalCurrency: best.originalCurrency,
  };
}

export interface CheckReport {
  checkedAt: string;
  fx: { source: string; asOf: string };
  passed: boolean;
  markets: MarketCheck[];
}

export async function runMarketsCheck(
  markets: readonly LiveMarket[],
  deps: CheckDeps,
): Promise<CheckReport> {
  const checkedAt = iso(deps.clock.now());
  const results = await Promise.all(markets.map((live) => checkMarket(live, deps)));
  return {
    checkedAt,
    fx: { source: deps.fx.source, asOf: iso(deps.fx.asOf) },
    passed: results.every((result) => result.passed),
    markets: results,
  };
}
