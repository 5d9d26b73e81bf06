/**
 * GET /v1/pricing/:marketHashName and /v2/pricing/:marketHashName?game=. The item is found by
 * exact (URL-decoded) name or canonical id; unknown → 404 on both versions. An item with no
 * quotes in the selected markets answers 200 with empty rows on /v1 and 404 on /v2 (the
 * spec's "no pricing where the route requires it").
 */
import { Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { App } from '../app-type.ts';
import { hasQuotes } from '../book-views.ts';
import type { AppDeps } from '../deps.ts';
import { findItem, noPricing, parseMarkets } from '../params.ts';
import { keyGate } from '../plugins/key-gate.ts';
import { latestBodyCache, sendLatest } from '../read-cache/cached-read.ts';
import { errorResponses, GameQuery, KEY_GATED_ERRORS, MarketsQuery } from '../schemas/common.ts';
import { PricingSnapshot } from '../schemas/pricing.ts';
import { pricingSnapshot } from '../../pricing/snapshot.ts';

const Params = Type.Object({
  marketHashName: Type.String({ description: 'URL-encoded market hash name or canonical id.' }),
});

const description =
  'Pricing snapshot: one representative ask per market, buy orders, aggregate, best ask and bid.';

export function pricingRoutes(app: App, deps: AppDeps): void {
  const cache = latestBodyCache(app, deps, 'count lookups');
  const snapshot = (
    request: FastifyRequest,
    reply: FastifyReply,
    name: string,
    markets: string | undefined,
    strict: boolean,
  ) =>
    sendLatest(cache, deps.clock.now(), request, reply, () => {
      const game = request.game;
      const selection = parseMarkets(markets, game);
      const item = findItem(deps.catalogs[game], name);
      const sides = deps.book.sides(game, item.id);
      if (strict && !hasQuotes(sides, selection)) throw noPricing();
      return { itemId: item.id, body: (now) => pricingSnapshot(item, sides, selection, now) };
    });

  app.get(
    '/v1/pricing/:marketHashName',
    {
      onRequest: keyGate(deps, 'pricing', { fixed: 'cs2' }),
      schema: {
        tags: ['pricing'],
        summary: 'Pricing snapshot (cs2)',
        description,
        security: [{ ApiKey: [] }],
        params: Params,
        querystring: Type.Object({ markets: Type.Optional(MarketsQuery) }),
        response: { 200: PricingSnapshot, ...errorResponses(...KEY_GATED_ERRORS) },
      },
    },
    async (request, reply) =>
      snapshot(request, reply, request.params.marketHashName, request.query.markets, false),
  );

  app.get(
    '/v2/pricing/:marketHashName',
    {
      onRequest: keyGate(deps, 'pricing', 'query'),
      schema: {
        tags: ['pricing'],
        summary: 'Pricing snapshot (game-scoped)',
        description: `${description} 404 when the item has no quotes in the selected markets.`,
        security: [{ ApiKey: [] }],
        params: Params,
        querystring: Type.Object({ game: GameQuery, markets: Type.Optional(MarketsQuery) }),
        response: { 200: PricingSnapshot, ...errorResponses(...KEY_GATED_ERRORS) },
      },
    },
    async (request, reply) =>
      snapshot(request, reply, request.params.marketHashName, request.query.markets, true),
  );
}
