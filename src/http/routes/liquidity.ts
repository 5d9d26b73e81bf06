/**
 * Liquidity and time-to-sell (Pro): GET /v1/liquidity/:marketHashName,
 * GET /v1/liquidity/summary/:marketHashName and POST /v1/liquidity/batch, each also as /v2 with
 * `game`. Estimates are computed from the book per request (src/liquidity). Items are named by
 * selector (src/http/params.ts; the batch via src/http/batch-items.ts). An unknown item is
 * 404; `market` must be one of the game's liquidity markets (400 naming them otherwise). The
 * Enterprise bulk map lives in liquidity-bulk.ts.
 */
import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import { iso } from '../../domain/clock.ts';
import { badRequest } from '../../domain/errors.ts';
import type { Game } from '../../domain/games.ts';
import type { MarketId } from '../../domain/markets.ts';
import { sentence } from '../../domain/parameter-sentences.ts';
import { liquidityFromBook } from '../../liquidity/from-book.ts';
import { isLiquidityMarket, LIQUIDITY_MARKETS } from '../../liquidity/markets.ts';
import { liquiditySummary } from '../../liquidity/summary.ts';
import type { App } from '../app-type.ts';
import type { AppDeps } from '../deps.ts';
import { resolveBatchItems } from '../batch-items.ts';
import { findItem } from '../params.ts';
import { keyGate, type GameSource } from '../plugins/key-gate.ts';
import { errorResponses, GameQuery, KEY_GATED_ERRORS } from '../schemas/common.ts';
import {
  LiquidityBatch,
  LiquidityBatchBody,
  LiquidityRecord,
  LiquiditySummary,
} from '../schemas/liquidity.ts';

export const ASK_PRICE_MAX = 10_000_000_000;

const Params = Type.Object({
  marketHashName: Type.String({ description: 'URL-encoded market hash name or canonical id.' }),
});

const MarketQuery = Type.String({
  description:
    'One liquidity market (cs2: skinport, marketcsgo, dmarket, csfloat, steamcommunity; rust: rusttm, skinport).',
});

const AskPriceQuery = Type.Integer({
  minimum: 1,
  maximum: ASK_PRICE_MAX,
  description:
    'USD cents. Below the best ask: front of the queue; at or above: behind the listings priced at or below it.',
});

/** The markets in scope: all of the game's liquidity markets, or the one named by `market`. */
export function liquidityScope(game: Game, market: string | undefined): readonly MarketId[] {
  if (market === undefined) return LIQUIDITY_MARKETS[game];
  if (!isLiquidityMarket(game, market)) {
    throw badRequest([sentence.oneOf('market', LIQUIDITY_MARKETS[game])]);
  }
  return [market];
}

const v1 = { fixed: 'cs2' } as const;
const forms: readonly [string, GameSource][] = [
  ['/v1', v1],
  ['/v2', 'query'],
];

function query<T extends Record<string, ReturnType<typeof Type.Optional>>>(
  source: GameSource,
  fields: T,
) {
  return source === 'query' ? Type.Object({ game: GameQuery, ...fields }) : Type.Object(fields);
}

export function liquidityRoutes(app: App, deps: AppDeps): void {
  const estimate = (
    request: FastifyRequest,
    name: string,
    market: string | undefined,
    askPrice: number | null,
  ) => {
    const game = request.game;
    const markets = liquidityScope(game, market);
    const item = findItem(deps.catalogs[game], name);
    return liquidityFromBook(deps.book, game, item, markets, askPrice, deps.clock.now());
  };

  for (const [prefix, source] of forms) {
    app.get(
      `${prefix}/liquidity/:marketHashName`,
      {
        onRequest: keyGate(deps, 'liquidity', source),
        schema: {
          tags: ['liquidity'],
          summary: `Liquidity and time-to-sell (${source === 'query' ? 'game-scoped' : 'cs2'})`,
          description:
            'Per liquidity market: sales velocity, listings, and median / p90 hours to sell at the reference price (Poisson sales, Erlang waiting time behind the queue); badge, confidence, coverage and notes.',
          security: [{ ApiKey: [] }],
          params: Params,
          querystring: query(source, {
            askPrice: Type.Optional(AskPriceQuery),
            market: Type.Optional(MarketQuery),
          }),
          response: { 200: LiquidityRecord, ...errorResponses(...KEY_GATED_ERRORS) },
        },
      },
      async (request) => {
        const { askPrice, market } = request.query as { askPrice?: number; market?: string };
        return estimate(request, request.params.marketHashName, market, askPrice ?? null);
      },
    );

    app.get(
      `${prefix}/liquidity/summary/:marketHashName`,
      {
        onRequest: keyGate(deps, 'liquidity', source),
        schema: {
          tags: ['liquidity'],
          summary: `Liquidity summary (${source === 'query' ? 'game-scoped' : 'cs2'})`,
          description:
            'Badge, lowercase label, estimated sale time range, confidence, score 0-100 (null for INSUFFICIENT_DATA) and the best market to list on. 404 for an unknown item.',
          security: [{ ApiKey: [] }],
          params: Params,
          querystring: query(source, { market: Type.Optional(MarketQuery) }),
          response: { 200: LiquiditySummary, ...errorResponses(...KEY_GATED_ERRORS) },
        },
      },
      async (request) => {
        const { market } = request.query as { market?: string };
        return liquiditySummary(estimate(request, request.params.marketHashName, market, null));
      },
    );

    app.post(
      `${prefix}/liquidity/batch`,
      {
        onRequest: keyGate(deps, 'liquidity', source),
        schema: {
          tags: ['liquidity'],
          summary: `Liquidity of up to 100 items (${source === 'query' ? 'game-scoped' : 'cs2'})`,
          description:
            'One request against the quota. Each entry is an item selector (exact name, canonical id, slug or the name in any letter case); entries that match no item are listed in notFound, an entry that matches several items makes the batch 409 naming it and its candidates; each item appears once in results, in request order, under its canonical name.',
          security: [{ ApiKey: [] }],
          ...(source === 'query' ? { querystring: Type.Object({ game: GameQuery }) } : {}),
          body: LiquidityBatchBody,
          response: { 200: LiquidityBatch, ...errorResponses(...KEY_GATED_ERRORS, 409) },
        },
      },
      async (request) => {
        const game = request.game;
        const { marketHashNames, market } = request.body;
        const markets = liquidityScope(game, market);
        const now = deps.clock.now();
        const { items, notFound } = resolveBatchItems(
          deps.catalogs[game],
          marketHashNames,
          'marketHashNames',
        );
        const results = items.map((item) =>
          liquidityFromBook(deps.book, game, item, markets, null, now),
        );
        return {
          results,
          notFound,
          requested: marketHashNames.length,
          calculatedAt: iso(now),
        };
      },
    );
  }
}
