/**
 * The terminal's keyless price stream, so its pages listen instead of polling:
 * - GET /terminal/api/stream?game=&name= — one item's quote, nbbo and stale events (the same
 *   hub and messages as /v1/stream, a snapshot first);
 * - GET /terminal/api/stream?game=&board=true — the game's market health events.
 * Opening one counts against the terminal's per-IP minute limit, and an IP holds at most
 * TERMINAL_STREAMS_PER_IP open (429 past it).
 */
import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import { streamHubOf } from '../http/app.ts';
import type { App } from '../http/app-type.ts';
import type { AppDeps } from '../http/deps.ts';
import { findItem } from '../http/params.ts';
import { RESUME_CATCH_UP_MS, responseSink, sseHeaders } from '../http/routes/stream.ts';
import { errorResponses, GameQuery } from '../http/schemas/common.ts';
import { parseLastEventId } from '../http/stream/stream-query.ts';
import type { StreamEventType } from '../http/stream/hub.ts';
import { ApiError, badRequest } from '../domain/errors.ts';
import { sentence } from '../domain/parameter-sentences.ts';
import { ALL_MARKETS } from '../pricing/top-of-book.ts';
import { terminalGate } from './limit.ts';

export const TERMINAL_STREAMS_PER_IP = 4;

const StreamQuery = Type.Object({
  game: GameQuery,
  name: Type.Optional(Type.String({ minLength: 1, maxLength: 512 })),
  board: Type.Optional(Type.Boolean()),
  lastEventId: Type.Optional(Type.String()),
});

const ITEM_EVENTS: ReadonlySet<StreamEventType> = new Set(['quote', 'nbbo', 'stale']);
const BOARD_EVENTS: ReadonlySet<StreamEventType> = new Set(['health']);

export function terminalStreamRoutes(app: App, deps: AppDeps): void {
  const openByIp = new Map<string, number>();
  const release = (ip: string) => {
    const left = (openByIp.get(ip) ?? 1) - 1;
    if (left <= 0) openByIp.delete(ip);
    else openByIp.set(ip, left);
  };
  const subscription = (request: FastifyRequest) => {
    const query = request.query as typeof StreamQuery.static;
    if (query.board === true) return { items: [], types: BOARD_EVENTS };
    if (query.name === undefined) throw badRequest([sentence.required('name')]);
    const item = findItem(deps.catalogs[request.game], query.name);
    return { items: [{ id: item.id, marketHashName: item.marketHashName }], types: ITEM_EVENTS };
  };

  app.get(
    '/terminal/api/stream',
    {
      onRequest: terminalGate(deps, { game: true }),
      schema: {
        tags: ['terminal'],
        summary: 'Terminal price stream (keyless, per IP)',
        querystring: StreamQuery,
        response: {
          200: Type.String({ description: 'text/event-stream, as /v1/stream.' }),
          ...errorResponses(400, 404, 429, 500),
        },
      },
    },
    async (request, reply) => {
      const hub = streamHubOf(app)!;
      const { items, types } = subscription(request);
      const lastEventId = parseLastEventId(
        request.headers['last-event-id'],
        (request.query as { lastEventId?: string }).lastEventId,
      );
      if (lastEventId !== null) await hub.reach(lastEventId, RESUME_CATCH_UP_MS);
      const held = openByIp.get(request.ip) ?? 0;
      if (held >= TERMINAL_STREAMS_PER_IP) {
        throw new ApiError(
          429,
          'RATE_LIMITED',
          `At most ${TERMINAL_STREAMS_PER_IP} open terminal streams per IP`,
          { 'Retry-After': 5 },
        );
      }
      openByIp.set(request.ip, held + 1);
      reply.hijack();
      const raw = reply.raw;
      if (raw.destroyed || !raw.socket || raw.socket.destroyed) {
        release(request.ip);
        return;
      }
      raw.writeHead(200, sseHeaders(reply));
      const game = request.game;
      const sink = responseSink(raw);
      const selection = ALL_MARKETS;
      const stop = hub.subscribe({ game, items, selection, types, lastEventId, sink });
      raw.on('close', () => {
        stop();
        release(request.ip);
      });
    },
  );
}
