/**
 * GET /v1/status/freshness and /v1/status/market-latency (snake_case), plus the game-scoped
 * /v2/status/freshness?game= and /v2/status/market-latency?game= (an extension: the spec
 * lists no /v2 status routes). Markets are those polled for the game.
 */
import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import { MARKETS_BY_GAME } from '../../domain/markets.ts';
import { freshnessReport } from '../../pricing/freshness-status.ts';
import { latencyReport } from '../../pricing/latency-stats.ts';
import type { App } from '../app-type.ts';
import { lastSuccessByMarket, recentFetches } from '../book-views.ts';
import type { AppDeps } from '../deps.ts';
import { keyGate, type GameSource } from '../plugins/key-gate.ts';
import { errorResponses, GameQuery } from '../schemas/common.ts';
import { FreshnessReport, MarketLatencyReport } from '../schemas/status.ts';

const ERRORS = errorResponses(400, 401, 403, 429, 500);

export function statusRoutes(app: App, deps: AppDeps): void {
  const marketsFor = deps.marketsForGame ?? ((game) => MARKETS_BY_GAME[game]);

  const freshness = (request: FastifyRequest) => {
    const now = deps.clock.now();
    const game = request.game;
    const markets = marketsFor(game);
    const records = recentFetches(deps.fetchHistory, game, now);
    const last = lastSuccessByMarket(deps.book, deps.fetchHistory, game, markets, records);
    return freshnessReport(
      markets.map((market) => ({ market, lastUpdate: last.get(market) ?? null })),
      now,
    );
  };

  const latency = (request: FastifyRequest) => {
    const now = deps.clock.now();
    const records = recentFetches(deps.fetchHistory, request.game, now);
    return latencyReport(marketsFor(request.game), records, now);
  };

  const versions: { prefix: string; source: GameSource; query?: ReturnType<typeof Type.Object> }[] =
    [
      { prefix: '/v1', source: { fixed: 'cs2' } },
      { prefix: '/v2', source: 'query', query: Type.Object({ game: GameQuery }) },
    ];
  for (const { prefix, source, query } of versions) {
    const scope = prefix === '/v1' ? '(cs2)' : '(game-scoped extension)';
    app.get(
      `${prefix}/status/freshness`,
      {
        onRequest: keyGate(deps, 'freshness', source),
        schema: {
          tags: ['status'],
          summary: `Data freshness per market ${scope}`,
          description:
            'healthy: last successful fetch ≤ 5 min ago; degraded: > 5 up to 15 min; stale: > 15 min or never.',
          security: [{ ApiKey: [] }],
          ...(query ? { querystring: query } : {}),
          response: { 200: FreshnessReport, ...ERRORS },
        },
      },
      async (request) => freshness(request),
    );
    app.get(
      `${prefix}/status/market-latency`,
      {
        onRequest: keyGate(deps, 'market_latency', source),
        schema: {
          tags: ['status'],
          summary: `Fetch-to-ingest latency per market over 24 hours ${scope}`,
          security: [{ ApiKey: [] }],
          ...(query ? { querystring: query } : {}),
          response: { 200: MarketLatencyReport, ...ERRORS },
        },
      },
      async (request) => latency(request),
    );
  }
}
