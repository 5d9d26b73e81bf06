/**
 * The terminal's keyless board reads:
 * - GET /terminal/api/markets?game= — every polled market's health row (status, 48 half-hour
 *   bars), freshness and 24-hour fetch latency / error rate, as the health and status routes;
 * - GET /terminal/api/arbitrage — the best cs2 opportunities after fees (at most 25, fixed
 *   options), stale legs flagged, as /v1/arbitrage/opportunities with its defaults.
 */
import { Type } from '@sinclair/typebox';
import type { Game } from '../domain/games.ts';
import type { App } from '../http/app-type.ts';
import type { BookViews } from '../http/book-views.ts';
import { readMarketHealth } from '../http/market-health-rows.ts';
import type { AppDeps } from '../http/deps.ts';
import { errorResponses, GameQuery } from '../http/schemas/common.ts';
import { DEFAULT_FEE_MODEL } from '../markets/fees.ts';
import {
  arbitrageSellMarkets,
  DEFAULT_ARBITRAGE_OPTIONS,
  DEFAULT_CANDIDATE_LIMIT,
  findOpportunities,
} from '../pricing/arbitrage.ts';
import { freshnessReport } from '../pricing/freshness-status.ts';
import { latencyReport } from '../pricing/latency-stats.ts';
import { terminalGate } from './limit.ts';
import { ArbitrageView, MarketsBoard } from './schemas.ts';

export const TERMINAL_ARBITRAGE_LIMIT = 25;

export function boardRoutes(app: App, deps: AppDeps, views: BookViews): void {
  const feeModel = deps.feeModel ?? DEFAULT_FEE_MODEL;
  const sellMarkets = arbitrageSellMarkets(feeModel);

  const board = (game: Game) => {
    const now = deps.clock.now();
    const {
      markets,
      records,
      lastSuccess: last,
      rows: health,
    } = readMarketHealth(deps, views, game, now);
    const freshness = freshnessReport(
      markets.map((market) => ({ market, lastUpdate: last.get(market) ?? null })),
      now,
    );
    return { health, freshness, latency: latencyReport(markets, records, now) };
  };

  const arbitrage = () => {
    const { evaluated, crossed } = views.crossedCandidates(
      'cs2',
      DEFAULT_CANDIDATE_LIMIT,
      null,
      sellMarkets,
    );
    const candidates = crossed.map((item) => ({ item, sides: deps.book.sides('cs2', item.id) }));
    const options = {
      ...DEFAULT_ARBITRAGE_OPTIONS,
      limit: TERMINAL_ARBITRAGE_LIMIT,
      markets: null,
    };
    const found = findOpportunities(candidates, options, feeModel, deps.clock.now());
    return { ...found, totalCandidates: evaluated };
  };

  app.get(
    '/terminal/api/markets',
    {
      onRequest: terminalGate(deps, { game: true }),
      schema: {
        tags: ['terminal'],
        summary: 'Terminal: markets board (keyless, per-IP limit)',
        querystring: Type.Object({ game: GameQuery }),
        response: { 200: MarketsBoard, ...errorResponses(400, 429, 500) },
      },
    },
    async (request) => board(request.game),
  );

  app.get(
    '/terminal/api/arbitrage',
    {
      onRequest: terminalGate(deps, { game: false }),
      schema: {
        tags: ['terminal'],
        summary: 'Terminal: arbitrage after fees, cs2 (keyless, per-IP limit)',
        description: `At most ${TERMINAL_ARBITRAGE_LIMIT} opportunities, default thresholds.`,
        response: { 200: ArbitrageView, ...errorResponses(429, 500) },
      },
    },
    async () => arbitrage(),
  );
}
