/**
 * GET /v1/pricing/:marketHashName/listings and /v2/pricing/:marketHashName/listings?game=:
 * individual listings with float data, cheapest first (src/attributes/listings-view.ts).
 * `limit` 1–2000 (default 500), `markets` as on pricing. Unknown item → 404 on both versions;
 * an item of the game answers its listings on both, quoted or not (listings are not quotes).
 */
import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import type { App } from '../app-type.ts';
import type { AppDeps } from '../deps.ts';
import { findItem, parseMarkets } from '../params.ts';
import { keyGate } from '../plugins/key-gate.ts';
import { errorResponses, GameQuery, KEY_GATED_ERRORS, MarketsQuery } from '../schemas/common.ts';
import { Listings } from '../schemas/listings.ts';
import { itemListings } from '../../attributes/item-listings.ts';
import {
  DEFAULT_LISTINGS_LIMIT,
  listingsResponse,
  MAX_LISTINGS_LIMIT,
} from '../../attributes/listings-view.ts';
import { DEFAULT_RETENTION } from '../../ingest/retention.ts';

const Params = Type.Object({
  marketHashName: Type.String({ description: 'URL-encoded market hash name or canonical id.' }),
});

const queryFields = {
  markets: Type.Optional(MarketsQuery),
  limit: Type.Integer({
    minimum: 1,
    maximum: MAX_LISTINGS_LIMIT,
    default: DEFAULT_LISTINGS_LIMIT,
    description: 'Listings to return, cheapest first.',
  }),
};

interface ListingsQuery {
  markets?: string;
  limit: number;
}

const description =
  'Individual listings with float, paint seed, paint index, stickers and inspect link, cheapest first, plus float coverage and the observed float range. Rust listings carry no float, seed, paint index or stickers.';

export function listingsRoutes(app: App, deps: AppDeps): void {
  const answer = (request: FastifyRequest, name: string, query: ListingsQuery) => {
    const game = request.game;
    const selection = parseMarkets(query.markets, game);
    const item = findItem(deps.catalogs[game], name);
    const sides = deps.book.sides(game, item.id);
    return listingsResponse({
      item,
      listings: itemListings(deps.book, deps.catalogs[game], item),
      asks: sides.flatMap((entry) => (entry.ask ? [entry.ask] : [])),
      selection,
      limit: query.limit,
      now: deps.clock.now(),
      maxAgeMs: DEFAULT_RETENTION.listingsUnseenMs,
    });
  };

  const schema = (summary: string) => ({
    tags: ['pricing'],
    summary,
    description,
    security: [{ ApiKey: [] }],
    params: Params,
    response: { 200: Listings, ...errorResponses(...KEY_GATED_ERRORS) },
  });

  app.get(
    '/v1/pricing/:marketHashName/listings',
    {
      onRequest: keyGate(deps, 'listings', { fixed: 'cs2' }),
      schema: {
        ...schema('Listings with float data (cs2)'),
        querystring: Type.Object(queryFields),
      },
    },
    async (request) => answer(request, request.params.marketHashName, request.query),
  );

  app.get(
    '/v2/pricing/:marketHashName/listings',
    {
      onRequest: keyGate(deps, 'listings', 'query'),
      schema: {
        ...schema('Listings with float data (game-scoped)'),
        querystring: Type.Object({ game: GameQuery, ...queryFields }),
      },
    },
    async (request) => answer(request, request.params.marketHashName, request.query),
  );
}
