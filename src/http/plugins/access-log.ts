/**
 * The opt-in access log (`--access-log` / `PRICING_ACCESS_LOG`): one info line per answered
 * request with its id, method, URL, status and time. Off by default: Fastify's own two lines
 * per request are always off, so a default log holds only what an operator should read.
 */
import type { App } from '../app-type.ts';

export function logAccess(app: App): void {
  app.addHook('onResponse', async (request, reply) => {
    request.log.info(
      {
        method: request.method,
        url: request.url,
        statusCode: reply.statusCode,
        responseTimeMs: Math.round(reply.elapsedTime * 10) / 10,
      },
      'request',
    );
  });
}
