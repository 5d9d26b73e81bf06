/**
 * The route side of the latest-body cache: a key-gated read answers from the cache when it
 * can, else resolves its item, builds the body with the route's own response serializer and
 * hands it to the cache. Errors (400, 404) are thrown before anything is kept.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { App } from '../app-type.ts';
import type { AppDeps } from '../deps.ts';
import { LatestBodyCache } from './latest-body-cache.ts';

const JSON_TYPE = 'application/json; charset=utf-8';

/** What a route needs to build a body: its item and the body as a function of time. */
export interface ReadPlan {
  itemId: string;
  body: (now: number) => unknown;
}

/** One cache per route module, dropped when the app closes. */
export function latestBodyCache(app: App, deps: AppDeps): LatestBodyCache {
  const cache = new LatestBodyCache(deps.book);
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
  const key = { url: request.url, plan: planName, game: request.game, itemId: read.itemId, now };
  const json = cache.build(key, (at) => reply.serialize(read.body(at)) as string);
  return reply.type(JSON_TYPE).send(json);
}
