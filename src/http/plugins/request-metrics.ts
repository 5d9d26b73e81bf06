/**
 * Times every response for the metrics endpoint. Each route gets its own onResponse hook, bound
 * to its pattern when the route is registered (reading the pattern per request would build an
 * options object each time); answers that matched no route (404, 405, malformed URLs) are timed
 * by one app-level hook under the route label `unmatched`. Register before any route.
 */
import type { FastifyReply, FastifyRequest, onResponseHookHandler, RouteOptions } from 'fastify';
import type { App } from '../app-type.ts';
import { UNMATCHED_ROUTE, type HttpMetrics, type RouteTimer } from '../../metrics/http-metrics.ts';

function timing(timer: RouteTimer, onlyUnmatched: boolean): onResponseHookHandler {
  return function observe(request: FastifyRequest, reply: FastifyReply, done: () => void) {
    if (!onlyUnmatched || request.is404) {
      timer.observe(request.method, reply.statusCode, reply.elapsedTime / 1000);
    }
    done();
  };
}

function withHook(existing: RouteOptions['onResponse'], hook: onResponseHookHandler) {
  if (existing === undefined) return [hook];
  return Array.isArray(existing) ? [...existing, hook] : [existing, hook];
}

export function instrumentRequests(app: App, metrics: HttpMetrics): void {
  app.addHook('onRoute', (route) => {
    const hook = timing(metrics.timerFor(route.url), false);
    route.onResponse = withHook(route.onResponse, hook);
  });
  app.addHook('onResponse', timing(metrics.timerFor(UNMATCHED_ROUTE), true));
}
