/**
 * GET /v1|v2/pricing/:marketHashName/history (cross-market aggregate) and .../history/markets
 * (one series per market), feature historical_data (Pro). Parameters are checked, and the
 * 10,000-point bound computed from range × interval × series, before any store read; the
 * answer is read and written slice by slice (history-body.ts).
 * `markets` belongs to the per-market form only: on the aggregate form it is a 400. The
 * per-market form serves every market with stored history for the item, or with `markets`
 * every listed market (those without history get an empty series, counting no points).
 */
import { Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { App } from '../app-type.ts';
import type { AppDeps } from '../deps.ts';
import { checkPointBound, parseHistoryQuery, type HistoryQuery } from '../history-params.ts';
import { sendHistory, sendHistoryByMarket } from '../history-body.ts';
import { findItem, parseMarkets } from '../params.ts';
import { keyGate, type GameSource } from '../plugins/key-gate.ts';
import { errorResponses, GameQuery, KEY_GATED_ERRORS } from '../schemas/common.ts';
import {
  AggregateHistoryQuery,
  History,
  HistoryByMarket,
  MarketHistoryQuery,
} from '../schemas/history.ts';
import { ApiError, badRequest } from '../../domain/errors.ts';
import { UNAVAILABLE_RETRY_SECONDS } from '../errors.ts';
import { MARKETS_BY_GAME } from '../../domain/markets.ts';
import type { HistoryStore } from '../../store/history-store.ts';

const Params = Type.Object({
  marketHashName: Type.String({ description: 'URL-encoded market hash name or canonical id.' }),
});

type HistoryRoute = FastifyRequest<{
  Params: { marketHashName: string };
  Querystring: HistoryQuery & { markets?: string };
}>;

export const MARKETS_ON_AGGREGATE_MESSAGE =
  'markets is only accepted on /history/markets; the aggregate history spans every market';

export function historyStore(deps: AppDeps): HistoryStore {
  if (deps.history) return deps.history;
  throw new ApiError(503, 'UNAVAILABLE', 'Price history is not available on this server', {
    'Retry-After': UNAVAILABLE_RETRY_SECONDS,
  });
}

function envelope(
  item: { id: string; marketHashName: string },
  request: ReturnType<typeof parseHistoryQuery>,
) {
  return {
    canonicalItemId: item.id,
    name: item.marketHashName,
    listingType: request.listingType,
    salesWindow: request.salesWindow,
    effectiveInterval: request.tier,
  };
}

export function historyRoutes(app: App, deps: AppDeps): void {
  const aggregate = async (request: HistoryRoute, reply: FastifyReply) => {
    const store = historyStore(deps);
    if (request.query.markets !== undefined) throw badRequest([MARKETS_ON_AGGREGATE_MESSAGE]);
    const parsed = parseHistoryQuery(request.query, deps.clock.now());
    checkPointBound(parsed, 1);
    const item = findItem(deps.catalogs[request.game], request.params.marketHashName);
    const series = { game: request.game, itemId: item.id, market: null };
    return sendHistory(reply, store, envelope(item, parsed), series, parsed);
  };

  const byMarket = async (request: HistoryRoute, reply: FastifyReply) => {
    const store = historyStore(deps);
    const game = request.game;
    const selection = parseMarkets(request.query.markets, game);
    const parsed = parseHistoryQuery(request.query, deps.clock.now());
    const item = findItem(deps.catalogs[game], request.params.marketHashName);
    const covered = await store.historyMarkets(game, item.id);
    const wanted = selection.markets;
    const all = deps.marketsForGame?.(game) ?? MARKETS_BY_GAME[game];
    const markets = wanted === null ? covered : all.filter((market) => wanted.has(market));
    const readable = markets.filter((market) => covered.includes(market));
    checkPointBound(parsed, readable.length);
    const series = markets.map((market) => ({
      key: { game, itemId: item.id, market },
      readable: readable.includes(market),
    }));
    return sendHistoryByMarket(reply, store, envelope(item, parsed), series, parsed);
  };

  const register = (version: 'v1' | 'v2', form: 'aggregate' | 'markets') => {
    const source: GameSource = version === 'v1' ? { fixed: 'cs2' } : 'query';
    const query = form === 'aggregate' ? AggregateHistoryQuery : MarketHistoryQuery;
    const suffix = form === 'aggregate' ? 'history' : 'history/markets';
    app.get(
      `/${version}/pricing/:marketHashName/${suffix}`,
      {
        onRequest: keyGate(deps, 'historical_data', source),
        schema: {
          tags: ['history'],
          summary: `Price history, ${form === 'aggregate' ? 'cross-market aggregate' : 'per market'} (${version === 'v1' ? 'cs2' : 'game-scoped'})`,
          description:
            'Stored 10m / 1h / 1d rollups, oldest first; buckets without observations are absent. At most 10,000 points (each market series counts separately).',
          security: [{ ApiKey: [] }],
          params: Params,
          querystring:
            version === 'v1' ? query : Type.Object({ game: GameQuery, ...query.properties }),
          response: {
            200: form === 'aggregate' ? History : HistoryByMarket,
            ...errorResponses(...KEY_GATED_ERRORS, 503),
          },
        },
      },
      (request, reply) => {
        const typed = request as unknown as HistoryRoute;
        return form === 'aggregate' ? aggregate(typed, reply) : byMarket(typed, reply);
      },
    );
  };
  for (const version of ['v1', 'v2'] as const) {
    register(version, 'aggregate');
    register(version, 'markets');
  }
}
