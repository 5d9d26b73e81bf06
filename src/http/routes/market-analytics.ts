/**
 * GET /v1/market-analytics/:marketHashName (cs2 only, snake_case), feature market_analytics
 * (Pro): per market the current quotes from the book and the rolling statistics over the last
 * `windowHours` (1-168, default 24) from the stored rollups. `markets` restricts the rows.
 */
import { Type } from '@sinclair/typebox';
import type { App } from '../app-type.ts';
import type { AppDeps } from '../deps.ts';
import { readWindows } from '../history-reader.ts';
import { findItem, parseMarkets } from '../params.ts';
import { keyGate } from '../plugins/key-gate.ts';
import { errorResponses, KEY_GATED_ERRORS, MarketsQuery } from '../schemas/common.ts';
import { MarketAnalytics } from '../schemas/market-analytics.ts';
import { historyStore } from './history.ts';
import { MARKETS_BY_GAME } from '../../domain/markets.ts';
import { analyticsSpans, marketAnalytics } from '../../pricing/market-analytics.ts';

export const MAX_WINDOW_HOURS = 168;

export function marketAnalyticsRoutes(app: App, deps: AppDeps): void {
  app.get(
    '/v1/market-analytics/:marketHashName',
    {
      onRequest: keyGate(deps, 'market_analytics', { fixed: 'cs2' }),
      schema: {
        tags: ['analytics'],
        summary: 'Market analytics (cs2)',
        description:
          'Per market: current ask, bid and counts, and the rolling average, minimum and maximum over the window.',
        security: [{ ApiKey: [] }],
        params: Type.Object({
          marketHashName: Type.String({
            description: 'URL-encoded market hash name or canonical id.',
          }),
        }),
        querystring: Type.Object({
          windowHours: Type.Integer({ minimum: 1, maximum: MAX_WINDOW_HOURS, default: 24 }),
          markets: Type.Optional(MarketsQuery),
        }),
        response: { 200: MarketAnalytics, ...errorResponses(...KEY_GATED_ERRORS, 503) },
      },
    },
    async (request) => {
      const store = historyStore(deps);
      const selection = parseMarkets(request.query.markets, 'cs2');
      const item = findItem(deps.catalogs.cs2, request.params.marketHashName);
      const wanted = selection.markets;
      const all = deps.marketsForGame?.('cs2') ?? MARKETS_BY_GAME.cs2;
      const markets = all.filter((market) => wanted === null || wanted.has(market));
      const now = deps.clock.now();
      const hours = request.query.windowHours;
      const spans = analyticsSpans(now, hours);
      const windows = await readWindows(store, 'cs2', item.id, markets, spans);
      const sides = deps.book.sides('cs2', item.id);
      const stats = deps.book.salesStats('cs2', item.id);
      return marketAnalytics(item, markets, sides, windows, hours, now, stats);
    },
  );
}
