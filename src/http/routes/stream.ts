/**
 * GET /v1/stream (cs2) and /v2/stream?game=: a Server-Sent Events price stream
 * (docs/api/stream-and-alerts.md). Key-gated like every route, opening it counts as one
 * request; then per plan an item limit per stream and a limit of open streams per account
 * (the account's own when set; 429 past it, with the quota headers), counted across the
 * deployment when the slots are in Redis (access/stream-slots.ts). The events come from the
 * process's StreamHub.
 */
import { Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ServerResponse } from 'node:http';
import type { App } from '../app-type.ts';
import type { AppDeps } from '../deps.ts';
import { parseMarkets } from '../params.ts';
import { keyGate } from '../plugins/key-gate.ts';
import { errorResponses, GameQuery, KEY_GATED_ERRORS, MarketsQuery } from '../schemas/common.ts';
import type { StreamHub, StreamSink } from '../stream/hub.ts';
import {
  parseLastEventId,
  parseStreamEvents,
  parseStreamItems,
  rawQueryValue,
} from '../stream/stream-query.ts';
import { ApiError } from '../../domain/errors.ts';
import { PLAN_STREAM_LIMITS } from '../../domain/plans.ts';
import { createMemoryStreamSlots } from '../../access/stream-slots.ts';

/** A client this far behind (bytes queued in its socket) is dropped; it resumes by id. */
export const MAX_QUEUED_BYTES = 4 * 1024 * 1024;
export const STREAM_RETRY_AFTER_SECONDS = 5;
/** How long a resume waits for this process to reach the resume point's position. */
export const RESUME_CATCH_UP_MS = 2_000;

export const streamQueryFields = {
  items: Type.String({
    description: 'CSV of market hash names or canonical ids, each URL-encoded.',
  }),
  markets: Type.Optional(MarketsQuery),
  events: Type.Optional(
    Type.String({ description: 'CSV of quote, nbbo, stale, health (default nbbo).' }),
  ),
  lastEventId: Type.Optional(
    Type.String({ description: 'Resume after this event id (the Last-Event-ID header wins).' }),
  ),
};

/** Writes SSE frames to a response; a client too far behind is closed. */
export function responseSink(raw: ServerResponse): StreamSink {
  return {
    write(frame) {
      if (raw.destroyed || raw.writableEnded) return false;
      raw.write(frame);
      return raw.writableLength <= MAX_QUEUED_BYTES;
    },
    close() {
      if (!raw.writableEnded) raw.end();
    },
  };
}

export function sseHeaders(reply: FastifyReply): Record<string, string | number | string[]> {
  const headers: Record<string, string | number | string[]> = {};
  for (const [name, value] of Object.entries(reply.getHeaders())) {
    if (value !== undefined) headers[name] = value;
  }
  headers['content-type'] = 'text/event-stream; charset=utf-8';
  headers['cache-control'] = 'no-cache, no-transform';
  headers['x-accel-buffering'] = 'no';
  return headers;
}

export function streamRoutes(app: App, deps: AppDeps, hub: StreamHub): void {
  const slots = deps.streamSlots ?? createMemoryStreamSlots();
  const stream = async (request: FastifyRequest, reply: FastifyReply) => {
    const auth = request.auth!;
    const limits = PLAN_STREAM_LIMITS[auth.plan];
    const concurrent = auth.account.streamsOverride ?? limits.concurrentStreams;
    const query = request.query as { markets?: string; events?: string; lastEventId?: string };
    const game = request.game;
    const items = parseStreamItems(
      rawQueryValue(request.raw.url ?? '', 'items'),
      deps.catalogs[game],
      limits.itemsPerStream,
    );
    const selection = parseMarkets(query.markets, game);
    const types = parseStreamEvents(query.events);
    const lastEventId = parseLastEventId(request.headers['last-event-id'], query.lastEventId);
    // A process a little behind the one the stream began on catches up before resuming it.
    if (lastEventId !== null) await hub.reach(lastEventId, RESUME_CATCH_UP_MS);
    const slot = await slots.take(auth.account.id, concurrent);
    if (slot === null) {
      throw new ApiError(
        429,
        'RATE_LIMITED',
        `At most ${concurrent} open streams for this account`,
        { 'Retry-After': STREAM_RETRY_AFTER_SECONDS },
      );
    }
    reply.hijack();
    const raw = reply.raw;
    if (raw.destroyed || !raw.socket || raw.socket.destroyed) {
      slots.release(auth.account.id, slot);
      return;
    }
    raw.writeHead(200, sseHeaders(reply));
    const unsubscribe = hub.subscribe({
      game,
      items,
      selection,
      types,
      lastEventId,
      sink: responseSink(raw),
    });
    raw.on('close', () => {
      unsubscribe();
      slots.release(auth.account.id, slot);
    });
  };

  const schema = (summary: string) => ({
    tags: ['stream'],
    summary,
    description:
      'Server-Sent Events: a snapshot, then quote / nbbo / stale / health events; resumable with Last-Event-ID.',
    security: [{ ApiKey: [] }],
    response: {
      200: Type.String({
        description:
          'text/event-stream: `id`, `event` and a one-line JSON `data` per message (snapshot, quote, nbbo, stale, health, reset), `: ping` every 15 s.',
      }),
      ...errorResponses(...KEY_GATED_ERRORS),
    },
  });

  app.get(
    '/v1/stream',
    {
      onRequest: keyGate(deps, 'stream', { fixed: 'cs2' }),
      schema: { ...schema('Price stream (cs2)'), querystring: Type.Object(streamQueryFields) },
    },
    async (request, reply) => stream(request, reply),
  );

  app.get(
    '/v2/stream',
    {
      onRequest: keyGate(deps, 'stream', 'query'),
      schema: {
        ...schema('Price stream (game-scoped)'),
        querystring: Type.Object({ game: GameQuery, ...streamQueryFields }),
      },
    },
    async (request, reply) => stream(request, reply),
  );
}
