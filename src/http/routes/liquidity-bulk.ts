/**
 * Enterprise: GET /v1/liquidity/items (the whole cs2 catalog's liquidity, keyed by market hash
 * name) and GET /v1/liquidity/items/manifest (the same head without `items`), both served as
 * pre-built bytes from the bulk cache (src/liquidity/bulk-cache.ts). `ETag` is the quoted
 * `version`; `If-None-Match` with it (quoted or bare) → 304 with no body; gzip when accepted;
 * 503 with Retry-After until the first build has finished.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../../domain/errors.ts';
import type { PreparedBytes } from '../../domain/prepared-payload.ts';
import type { BulkLiquiditySnapshot } from '../../liquidity/bulk-cache.ts';
import type { App } from '../app-type.ts';
import type { AppDeps } from '../deps.ts';
import { keyGate } from '../plugins/key-gate.ts';
import { errorResponses, KEY_GATED_ERRORS } from '../schemas/common.ts';
import { LiquidityItems, LiquidityManifest } from '../schemas/liquidity.ts';
import { etagMatches, NOT_READY_RETRY_SECONDS, sendPrepared } from './items-all.ts';

function heldVersionMatches(header: string | undefined, snapshot: BulkLiquiditySnapshot) {
  if (etagMatches(header, snapshot.etag)) return true;
  return (header ?? '').split(',').some((tag) => tag.trim() === snapshot.version);
}

function notReady(): ApiError {
  return new ApiError(503, 'NOT_READY', 'The liquidity map is not built yet; retry later', {
    'Retry-After': NOT_READY_RETRY_SECONDS,
  });
}

export function liquidityBulkRoutes(app: App, deps: AppDeps): void {
  const serve =
    (pick: (snapshot: BulkLiquiditySnapshot) => PreparedBytes) =>
    async (request: FastifyRequest, reply: FastifyReply) => {
      const snapshot = deps.liquidityBulk?.current() ?? null;
      if (!snapshot) throw notReady();
      if (heldVersionMatches(request.headers['if-none-match'], snapshot)) {
        reply.header('ETag', snapshot.etag).header('Vary', 'Accept-Encoding');
        return reply.header('Cache-Control', 'no-cache').code(304).send();
      }
      return sendPrepared(request, reply, { ...pick(snapshot), etag: snapshot.etag });
    };

  const common = {
    tags: ['liquidity'],
    security: [{ ApiKey: [] }],
  };
  app.get(
    '/v1/liquidity/items',
    {
      onRequest: keyGate(deps, 'liquidity_bulk', { fixed: 'cs2' }),
      schema: {
        ...common,
        summary: 'Liquidity of every cs2 item (bulk, pre-built every 10 minutes)',
        description:
          'One map keyed by market hash name. ETag = version; If-None-Match → 304; gzip when accepted; 503 with Retry-After until the first build.',
        response: {
          200: LiquidityItems,
          304: { description: 'Not modified', type: 'null' },
          ...errorResponses(...KEY_GATED_ERRORS, 503),
        },
      },
    },
    serve((snapshot) => snapshot.items),
  );
  app.get(
    '/v1/liquidity/items/manifest',
    {
      onRequest: keyGate(deps, 'liquidity_bulk', { fixed: 'cs2' }),
      schema: {
        ...common,
        summary: 'Version of the bulk liquidity map (the map without items)',
        description:
          'Compare `version` with the held copy. Same ETag, 304 and 503 rules as the map.',
        response: {
          200: LiquidityManifest,
          304: { description: 'Not modified', type: 'null' },
          ...errorResponses(...KEY_GATED_ERRORS, 503),
        },
      },
    },
    serve((snapshot) => snapshot.manifest),
  );
}
