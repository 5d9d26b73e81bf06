/**
 * GET /v1/nbbo/depth and /v2/nbbo/depth?game=: ask and bid ladders merged across markets, `depth`
 * levels per side (1–50, default 10). Item selection and `markets` as on NBBO.
 */
import { Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { App } from '../app-type.ts';
import type { AppDeps } from '../deps.ts';
import { parseMarkets } from '../params.ts';
import { keyGate } from '../plugins/key-gate.ts';
import { latestBodyCache, sendLatest } from '../read-cache/cached-read.ts';
import { errorResponses, GameQuery, KEY_GATED_ERRORS } from '../schemas/common.ts';
import { Depth } from '../schemas/depth.ts';
import { computeDepth, DEFAULT_DEPTH, MAX_DEPTH, MIN_DEPTH } from '../../pricing/depth.ts';
import { itemFromQuery, itemQueryFields, type ItemQuery } from './nbbo.ts';

const depthFields = {
  ...itemQueryFields,
  depth: Type.Integer({
    minimum: MIN_DEPTH,
    maximum: MAX_DEPTH,
    default: DEFAULT_DEPTH,
    description: 'Merged price levels per side.',
  }),
};

interface DepthQuery extends ItemQuery {
  markets?: string;
  depth: number;
}

export function depthRoutes(app: App, deps: AppDeps): void {
  const cache = latestBodyCache(app, deps);
  const ladder = (request: FastifyRequest, reply: FastifyReply, query: DepthQuery) =>
    sendLatest(cache, deps.clock.now(), request, reply, () => {
      const game = request.game;
      const selection = parseMarkets(query.markets, game);
      const item = itemFromQuery(deps.catalogs[game], query);
      const sides = deps.book.sides(game, item.id);
      return {
        itemId: item.id,
        body: (now) => computeDepth(item, sides, selection, query.depth, now),
      };
    });

  const schema = (summary: string) => ({
    tags: ['nbbo'],
    summary,
    description:
      'Ask ladder (cheapest first) and bid ladder (highest first) merged across markets, with the per-market quotes at each price and the cumulative quantity. A market that gives only a top of book contributes one level.',
    security: [{ ApiKey: [] }],
    response: { 200: Depth, ...errorResponses(...KEY_GATED_ERRORS) },
  });

  app.get(
    '/v1/nbbo/depth',
    {
      onRequest: keyGate(deps, 'depth', { fixed: 'cs2' }),
      schema: { ...schema('Depth ladder (cs2)'), querystring: Type.Object(depthFields) },
    },
    async (request, reply) => ladder(request, reply, request.query),
  );

  app.get(
    '/v2/nbbo/depth',
    {
      onRequest: keyGate(deps, 'depth', 'query'),
      schema: {
        ...schema('Depth ladder (game-scoped)'),
        querystring: Type.Object({ game: GameQuery, ...depthFields }),
      },
    },
    async (request, reply) => ladder(request, reply, request.query),
  );
}
