/**
 * The operator listener: `GET /metrics` (Prometheus text format) on its own port, never on the
 * public API's. With a token, every request must carry `Authorization: Bearer <token>`
 * (compared in constant time); a missing or wrong token is a 401. Every answer carries
 * X-Request-ID and errors use the API's envelope.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import Fastify, { type FastifyReply, type FastifyRequest } from 'fastify';
import type { Registry } from 'prom-client';
import { ApiError } from '../domain/errors.ts';
import { answerClientError, answerNodeRefusals, requireOneHost } from './client-errors.ts';
import { handleError, sendError } from './errors.ts';
import { requestIdFor } from './plugins/request-id.ts';
import { startServer, type RunningServer } from './server.ts';

export const METRICS_PATH = '/metrics';
export const METRICS_TOKEN_MESSAGE = 'Metrics token missing or invalid';

export interface OperatorServerOptions {
  registry: Registry;
  port: number;
  host: string;
  /** null: no token (only allowed on a loopback address, see config.ts). */
  token: string | null;
}

const digest = (value: string) => createHash('sha256').update(value).digest();

function tokenGate(token: string | null) {
  const expected = token === null ? null : digest(token);
  return async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    reply.header('X-Request-ID', request.id);
    if (expected === null) return;
    const match = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '');
    if (match && timingSafeEqual(digest(match[1]!), expected)) return;
    throw new ApiError(401, 'UNAUTHORIZED', METRICS_TOKEN_MESSAGE, {
      'WWW-Authenticate': 'Bearer realm="metrics"',
    });
  };
}

export async function startOperatorServer(options: OperatorServerOptions): Promise<RunningServer> {
  const app = Fastify({
    logger: false,
    genReqId: requestIdFor,
    return503OnClosing: false,
    frameworkErrors: (error, request, reply) => {
      reply.header('X-Request-ID', request.id);
      return handleError(error, request, reply);
    },
    clientErrorHandler: answerClientError,
    http: { requireHostHeader: false },
  });
  app.addHook('onRequest', tokenGate(options.token));
  app.addHook('onRequest', requireOneHost);
  answerNodeRefusals(app.server);
  app.setErrorHandler(handleError);
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?', 1)[0] ?? '/';
    return sendError(reply, new ApiError(404, 'NOT_FOUND', `Cannot ${request.method} ${path}`));
  });
  app.get(METRICS_PATH, async (_request, reply) => {
    const body = await options.registry.metrics();
    return reply.type(options.registry.contentType).send(body);
  });
  return startServer(app as Parameters<typeof startServer>[0], {
    port: options.port,
    host: options.host,
    graceMs: 1_000,
  });
}
