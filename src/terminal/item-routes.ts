/**
 * The terminal's keyless item reads, all bounded so they never add up to a bulk API:
 * - GET /terminal/api/search?game=&q= — at most SEARCH_LIMIT quoted items matching the words
 *   (each a prefix, as /v1/items); `q` is required (1–100 characters), there is no paging;
 * - GET /terminal/api/item?game=&name= — one item: catalog facts, pricing snapshot, NBBO with
 *   execution quotes, merged depth (20 levels) and the suggested price;
 * - GET /terminal/api/history[/markets]?game=&name=&interval=&listingType= — a fixed window per
 *   interval (10m: 2 days, 1h: 14 days, 1d: 180 days), aggregate or one series per market.
 * Every answer is computed by the same pure functions as the key-gated routes.
 */
import { Type } from '@sinclair/typebox';
import { DAY } from '../domain/clock.ts';
import { STALE_AFTER_MS } from '../domain/freshness.ts';
import type { Game } from '../domain/games.ts';
import type { CatalogItem } from '../domain/item.ts';
import type { App } from '../http/app-type.ts';
import type { BookViews } from '../http/book-views.ts';
import type { AppDeps } from '../http/deps.ts';
import { findItem } from '../http/params.ts';
import { errorResponses, GameQuery, StringEnum } from '../http/schemas/common.ts';
import { History, HistoryByMarket } from '../http/schemas/history.ts';
import { DEFAULT_FEE_MODEL } from '../markets/fees.ts';
import { computeDepth } from '../pricing/depth.ts';
import { computeNbbo } from '../pricing/nbbo.ts';
import { computeRecommendation } from '../pricing/recommendation.ts';
import { pricingSnapshot } from '../pricing/snapshot.ts';
import { ALL_MARKETS } from '../pricing/top-of-book.ts';
import { itemExtras } from './extras.ts';
import { sendTerminalHistory } from './history.ts';
import { terminalGate } from './limit.ts';
import {
  type ItemFacts,
  ItemView,
  SearchResults,
  TERMINAL_INTERVALS,
  type TerminalInterval,
} from './schemas.ts';

export const SEARCH_LIMIT = 10;
export const MAX_QUERY_LENGTH = 100;
export const TERMINAL_DEPTH_LEVELS = 20;
export const HISTORY_WINDOW_MS: Readonly<Record<TerminalInterval, number>> = {
  '10m': 2 * DAY,
  '1h': 14 * DAY,
  '1d': 180 * DAY,
};

const ERRORS = errorResponses(400, 404, 429, 500);
const NameQuery = Type.String({ minLength: 1, maxLength: 512, description: 'Market hash name.' });

const HistoryQuery = Type.Object({
  game: GameQuery,
  name: NameQuery,
  interval: StringEnum(TERMINAL_INTERVALS, '10m: last 2 days, 1h: 14 days, 1d: 180 days.'),
  listingType: StringEnum(['SELL_OFFER', 'BUY_ORDER', 'SALE_HISTORY'] as const),
});

export function itemFacts(item: CatalogItem): typeof ItemFacts.static {
  const facts: typeof ItemFacts.static = {
    id: item.id,
    game: item.game,
    marketHashName: item.marketHashName,
    category: item.category,
  };
  const optional = [
    'weapon',
    'finish',
    'rarity',
    'wear',
    'stattrak',
    'souvenir',
    'phase',
    'floatRange',
    'collections',
    'image',
  ] as const;
  for (const key of optional) {
    if (item[key] !== undefined) (facts as Record<string, unknown>)[key] = item[key];
  }
  return facts;
}

export function itemRoutes(app: App, deps: AppDeps, views: BookViews): void {
  const feeModel = deps.feeModel ?? DEFAULT_FEE_MODEL;
  const gate = terminalGate(deps, { game: true });

  const search = (game: Game, text: string) => {
    const matches = views.filterQuoted(game, deps.catalogs[game].search(text), ALL_MARKETS);
    const now = deps.clock.now();
    const results = matches.slice(0, SEARCH_LIMIT).map((item) => {
      const snapshot = pricingSnapshot(item, deps.book.sides(game, item.id), ALL_MARKETS, now);
      return {
        canonicalItemId: item.id,
        name: item.marketHashName,
        game,
        bestAsk: snapshot.bestAsk,
        bestBid: snapshot.bestBid,
        spreadBps: snapshot.spreadBps,
        marketCount: snapshot.marketCount,
      };
    });
    return { results };
  };

  const itemView = (game: Game, name: string) => {
    const item = findItem(deps.catalogs[game], name);
    const sides = deps.book.sides(game, item.id);
    const now = deps.clock.now();
    return {
      item: itemFacts(item),
      pricing: pricingSnapshot(item, sides, ALL_MARKETS, now),
      nbbo: computeNbbo(item, sides, ALL_MARKETS, feeModel, now),
      depth: computeDepth(item, sides, ALL_MARKETS, TERMINAL_DEPTH_LEVELS, now),
      recommendation: computeRecommendation(item, sides, ALL_MARKETS, feeModel, now),
      ...itemExtras(deps, item, now),
      staleAfterSeconds: STALE_AFTER_MS / 1000,
    };
  };

  app.get(
    '/terminal/api/search',
    {
      onRequest: gate,
      schema: {
        tags: ['terminal'],
        summary: 'Terminal: item search (keyless, per-IP limit)',
        description: `At most ${SEARCH_LIMIT} quoted items whose name matches every word as a prefix.`,
        querystring: Type.Object({
          game: GameQuery,
          q: Type.String({ minLength: 1, maxLength: MAX_QUERY_LENGTH }),
        }),
        response: { 200: SearchResults, ...ERRORS },
      },
    },
    async (request) => search(request.game, request.query.q.trim()),
  );

  app.get(
    '/terminal/api/item',
    {
      onRequest: gate,
      schema: {
        tags: ['terminal'],
        summary: 'Terminal: one item page (keyless, per-IP limit)',
        querystring: Type.Object({ game: GameQuery, name: NameQuery }),
        response: { 200: ItemView, ...ERRORS },
      },
    },
    async (request) => itemView(request.game, request.query.name),
  );

  for (const form of ['aggregate', 'markets'] as const) {
    app.get(
      form === 'aggregate' ? '/terminal/api/history' : '/terminal/api/history/markets',
      {
        onRequest: gate,
        schema: {
          tags: ['terminal'],
          summary: `Terminal: price history, ${form === 'aggregate' ? 'cross-market' : 'per market'} (keyless, per-IP limit)`,
          querystring: HistoryQuery,
          response: {
            200: form === 'aggregate' ? History : HistoryByMarket,
            ...errorResponses(400, 404, 429, 500, 503),
          },
        },
      },
      async (request, reply) => {
        const query = request.query as typeof HistoryQuery.static;
        const item = findItem(deps.catalogs[request.game], query.name);
        const window = HISTORY_WINDOW_MS[query.interval];
        await sendTerminalHistory(deps, reply, { item, form, window, ...query });
      },
    );
  }
}
