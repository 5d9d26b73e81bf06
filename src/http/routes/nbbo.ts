/**
 * GET /v1/nbbo and /v2/nbbo?game=: the cross-market best bid and offer of one item, raw and
 * after fees. The item is chosen by `market_hash_name` (exact name, else canonical id) or `id`
 * (canonical id); the name wins when both are given; 400 when neither, 404 when unknown. A
 * known item without quotes is a 200 with null sides and `executionAdjusted: null` (on /v2 too).
 */
import { Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { App } from '../app-type.ts';
import type { AppDeps } from '../deps.ts';
import { findItem, parseMarkets } from '../params.ts';
import { keyGate } from '../plugins/key-gate.ts';
import { latestBodyCache, sendLatest } from '../read-cache/cached-read.ts';
import { errorResponses, GameQuery, KEY_GATED_ERRORS, MarketsQuery } from '../schemas/common.ts';
import { Nbbo } from '../schemas/nbbo.ts';
import type { Catalog } from '../../catalog/catalog.ts';
import { badRequest, notFound } from '../../domain/errors.ts';
import type { CatalogItem } from '../../domain/item.ts';
import { DEFAULT_FEE_MODEL } from '../../markets/fees.ts';
import { computeNbbo } from '../../pricing/nbbo.ts';

export const ITEM_REQUIRED_MESSAGE = 'market_hash_name or id is required';

export interface ItemQuery {
  market_hash_name?: string;
  id?: string;
}

export const itemQueryFields = {
  market_hash_name: Type.Optional(
    Type.String({ description: 'Exact market hash name (a canonical id is accepted too).' }),
  ),
  id: Type.Optional(Type.String({ description: 'Canonical item id.' })),
  markets: Type.Optional(MarketsQuery),
};

/** The item named by `market_hash_name` or `id`; empty values count as absent. */
export function itemFromQuery(catalog: Catalog, query: ItemQuery): CatalogItem {
  const name = query.market_hash_name ?? '';
  const id = query.id ?? '';
  if (name.length > 0) return findItem(catalog, name);
  if (id.length === 0) throw badRequest([ITEM_REQUIRED_MESSAGE]);
  const item = catalog.byId(id);
  if (!item) throw notFound();
  return item;
}

const description =
  'Best ask and best bid across markets, spread (bps of the bid), locked / crossed, confidence, and the execution-adjusted view after fees.';

export function nbboRoutes(app: App, deps: AppDeps): void {
  const feeModel = deps.feeModel ?? DEFAULT_FEE_MODEL;
  const cache = latestBodyCache(app, deps);
  const nbbo = (
    request: FastifyRequest,
    reply: FastifyReply,
    query: ItemQuery & { markets?: string },
  ) =>
    sendLatest(cache, deps.clock.now(), request, reply, () => {
      const game = request.game;
      const selection = parseMarkets(query.markets, game);
      const item = itemFromQuery(deps.catalogs[game], query);
      const sides = deps.book.sides(game, item.id);
      return {
        itemId: item.id,
        body: (now) => computeNbbo(item, sides, selection, feeModel, now),
      };
    });

  const schema = (summary: string) => ({
    tags: ['nbbo'],
    summary,
    description,
    security: [{ ApiKey: [] }],
    response: { 200: Nbbo, ...errorResponses(...KEY_GATED_ERRORS) },
  });

  app.get(
    '/v1/nbbo',
    {
      onRequest: keyGate(deps, 'nbbo', { fixed: 'cs2' }),
      schema: { ...schema('NBBO (cs2)'), querystring: Type.Object(itemQueryFields) },
    },
    async (request, reply) => nbbo(request, reply, request.query),
  );

  app.get(
    '/v2/nbbo',
    {
      onRequest: keyGate(deps, 'nbbo', 'query'),
      schema: {
        ...schema('NBBO (game-scoped)'),
        querystring: Type.Object({ game: GameQuery, ...itemQueryFields }),
      },
    },
    async (request, reply) => nbbo(request, reply, request.query),
  );
}
