/**
 * The route side of the latest-body cache: a key-gated read answers from the cache when it
 * can, else resolves its item, builds the body with the route's own response serializer and
 * hands it to the cache. Errors (400, 404) are thrown before anything is kept.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { App } from '../app-type.ts';
import type { AppDeps } from '../deps.ts';
import { FastReads, JSON_TYPE } from './fast-reads.ts';
import { LatestBodyCache } from './latest-body-cache.ts';

/** What a route needs to build a body: its item and the body as a function of time. */
export interface ReadPlan {
  itemId: string;
  body: (now: number) => unknown;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The path in front of the router that answers these caches' hits (buildApp sets it). */
    fastReads: FastReads | null;
  }
}

/** Puts a fast path for cache hits in front of the app's router (before any route). */
export function installFastReads(app: App, deps: AppDeps): void {
  const fastReads = new FastReads(deps);
  app.decorate('fastReads', fastReads);
  app.addHook('onRoute', (route) => fastReads.learnRoute(route));
  app.addHook('preClose', (done) => {
    fastReads.stop();
    done();
  });
  fastReads.install(app.server);
}

/**
 * One cache per route module, dropped when the app closes; its hits take the fast path. A
 * route whose reads count as item lookups (pricing: it resolves names through the catalog)
 * passes `lookups`, so its cache hits count too.
 */
export function latestBodyCache(
  app: App,
  deps: AppDeps,
  lookups: 'count lookups' | 'no lookups' = 'no lookups',
): LatestBodyCache {
  const onHit = lookups === 'count lookups' ? deps.noteItemRead : undefined;
  const cache = new LatestBodyCache(deps.book, onHit);
  if (app.hasDecorator('fastReads')) app.fastReads?.addCache(cache);
  app.addHook('onClose', async () => cache.close());
  return cache;
}

/** Sends the cached or freshly built body; `plan` runs only on a miss and may throw. */
export function sendLatest(
  cache: LatestBodyCache,
  now: number,
  request: FastifyRequest,
  reply: FastifyReply,
  plan: () => ReadPlan,
): FastifyReply {
  const planName = request.auth?.plan ?? '';
  const cached = cache.lookup(request.url, planName, now);
  if (cached !== null) return reply.type(JSON_TYPE).send(cached);
  const read = plan();
  const key = {
    url: request.url,
    route: request.routeOptions.url ?? '',
    plan: planName,
    game: request.game,
    itemId: read.itemId,
    now,
  };
  const json = cache.build(key, (at) => reply.serialize(read.body(at)) as string);
  return reply.type(JSON_TYPE).send(json);
}
