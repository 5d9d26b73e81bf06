/**
 * GET /v1/items and /v2/items?game=: item search returning full pricing snapshots with
 * `{data, pagination}`. Results are the items with at least one quote (in the selected markets
 * when `markets` is given), in catalog order; `search` narrows them by word prefixes (all words
 * must match, case-insensitive). An empty or blank `search` is the same as none.
 */
import { Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { App } from '../app-type.ts';
import type { BookViews } from '../book-views.ts';
import type { AppDeps } from '../deps.ts';
import { paginate } from '../pagination.ts';
import { parseMarkets } from '../params.ts';
import {
  arrayPieces,
  mappedSlices,
  objectPieces,
  rowsSerializer,
  sendPieces,
} from '../json-pieces.ts';
import { keyGate } from '../plugins/key-gate.ts';
import { errorResponses, GameQuery, KEY_GATED_ERRORS, MarketsQuery } from '../schemas/common.ts';
import { ItemsPage, PricingSnapshot } from '../schemas/pricing.ts';
import { pricingSnapshot } from '../../pricing/snapshot.ts';

export const MAX_SEARCH_LENGTH = 512;
export const MAX_PER_PAGE = 100;
export const MAX_PAGE = 1_000_000;

const searchFields = {
  search: Type.Optional(
    Type.String({
      maxLength: MAX_SEARCH_LENGTH,
      description: 'Words, each a case-insensitive prefix of a word of the name; all must match.',
    }),
  ),
  markets: Type.Optional(MarketsQuery),
  page: Type.Integer({ minimum: 1, maximum: MAX_PAGE, default: 1, description: '1-based.' }),
  perPage: Type.Integer({ minimum: 1, maximum: MAX_PER_PAGE, default: 10 }),
};

interface SearchQuery {
  search?: string;
  markets?: string;
  page: number;
  perPage: number;
}

export function itemsRoutes(app: App, deps: AppDeps, views: BookViews): void {
  const search = async (request: FastifyRequest, reply: FastifyReply, query: SearchQuery) => {
    const game = request.game;
    const selection = parseMarkets(query.markets, game);
    const text = query.search?.trim() ?? '';
    const matches =
      text.length === 0
        ? views.quotedIn(game, selection)
        : views.filterQuoted(game, deps.catalogs[game].search(text), selection);
    const page = paginate(matches, query.page, query.perPage);
    const now = deps.clock.now();
    const rows = mappedSlices(page.rows, (item) =>
      pricingSnapshot(item, deps.book.sides(game, item.id), selection, now),
    );
    const data = await arrayPieces(rows, rowsSerializer(reply, PricingSnapshot));
    return sendPieces(
      reply,
      objectPieces([
        ['data', data],
        ['pagination', page.pagination],
      ]),
    );
  };

  const schema = (summary: string) => ({
    tags: ['items'],
    summary,
    description:
      'Item search; each result is a full pricing snapshot. Items without quotes are left out.',
    security: [{ ApiKey: [] }],
    response: { 200: ItemsPage, ...errorResponses(...KEY_GATED_ERRORS) },
  });

  app.get(
    '/v1/items',
    {
      onRequest: keyGate(deps, 'items', { fixed: 'cs2' }),
      schema: { ...schema('Item search (cs2)'), querystring: Type.Object(searchFields) },
    },
    async (request, reply) => search(request, reply, request.query),
  );

  app.get(
    '/v2/items',
    {
      onRequest: keyGate(deps, 'items', 'query'),
      schema: {
        ...schema('Item search (game-scoped)'),
        querystring: Type.Object({ game: GameQuery, ...searchFields }),
      },
    },
    async (request, reply) => search(request, reply, request.query),
  );
}
