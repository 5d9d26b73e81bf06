/**
 * GET /v1/items/all (cs2 only, no /v2 form): the pre-built bare array of every catalog item,
 * served as bytes. `ETag` on every 200; `If-None-Match` with it → 304; `Content-Encoding: gzip`
 * when the client accepts gzip; 503 with Retry-After until the first build has finished.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../../domain/errors.ts';
import { jsonStream, type PreparedBytes } from '../../domain/prepared-payload.ts';
import type { App } from '../app-type.ts';
import type { AppDeps } from '../deps.ts';
import { keyGate } from '../plugins/key-gate.ts';
import { errorResponses, KEY_GATED_ERRORS } from '../schemas/common.ts';
import { ItemsAllRows } from '../schemas/status.ts';

export const NOT_READY_RETRY_SECONDS = 5;

/** True when an If-None-Match header lists `etag` (weak or strong) or is `*`. */
export function etagMatches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header
    .split(',')
    .map((tag) => tag.trim().replace(/^W\//, ''))
    .some((tag) => tag === '*' || tag === etag);
}

/** True when Accept-Encoding allows gzip: an explicit `gzip` entry wins over `*`; `q=0` refuses. */
export function acceptsGzip(header: string | undefined): boolean {
  if (!header) return false;
  const codings = new Map<string, number>();
  for (const part of header.toLowerCase().split(',')) {
    const [coding, ...params] = part.split(';').map((piece) => piece.trim());
    const q = params.find((param) => param.startsWith('q='));
    if (coding) codings.set(coding, q === undefined ? 1 : Number(q.slice(2)));
  }
  const weight = codings.get('gzip') ?? codings.get('*') ?? 0;
  return weight > 0;
}

/** Prepared bytes with their ETag: 304 on a matching If-None-Match, gzip when accepted. */
export function sendPrepared(
  request: FastifyRequest,
  reply: FastifyReply,
  payload: PreparedBytes & { etag: string },
) {
  reply.header('ETag', payload.etag).header('Vary', 'Accept-Encoding');
  reply.header('Cache-Control', 'no-cache');
  if (etagMatches(request.headers['if-none-match'], payload.etag)) return reply.code(304).send();
  reply.type('application/json; charset=utf-8');
  if (acceptsGzip(request.headers['accept-encoding'])) {
    return reply.header('Content-Encoding', 'gzip').send(payload.gzip);
  }
  reply.header('Content-Length', payload.jsonBytes);
  return reply.send(jsonStream(payload));
}

export function itemsAllRoutes(app: App, deps: AppDeps): void {
  const serve = async (request: FastifyRequest, reply: FastifyReply) => {
    const payload = deps.itemsAll.current();
    if (!payload) {
      throw new ApiError(503, 'NOT_READY', 'The item snapshot is not built yet; retry later', {
        'Retry-After': NOT_READY_RETRY_SECONDS,
      });
    }
    return sendPrepared(request, reply, payload);
  };

  app.get(
    '/v1/items/all',
    {
      onRequest: keyGate(deps, 'items_all', { fixed: 'cs2' }),
      schema: {
        tags: ['items'],
        summary: 'Every cs2 item with its latest prices (bulk, pre-built)',
        description:
          'Bare array of at most 50,000 rows, rebuilt at most every few seconds after the book changes. ' +
          'Supports If-None-Match (304) and gzip. 503 with Retry-After until the first build.',
        security: [{ ApiKey: [] }],
        response: {
          200: ItemsAllRows,
          304: { description: 'Not modified', type: 'null' },
          ...errorResponses(...KEY_GATED_ERRORS, 503),
        },
      },
    },
    serve,
  );
}
