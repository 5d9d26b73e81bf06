/**
 * buildApp(deps): the Fastify application without a listener. Pipeline per request, in order:
 * request id → (405 check for known paths) → route gate (key: auth → plan → quota → game;
 * health: per-IP limit → game) → body parsing → parameter validation → handler. Every error
 * leaves through one envelope; every response carries X-Request-ID.
 */
import Fastify, { LogController } from 'fastify';
import type { FastifyError, FastifyHttpOptions, FastifyReply, FastifyRequest } from 'fastify';
import type { Server } from 'node:http';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { App } from './app-type.ts';
import { BookViews } from './book-views.ts';
import type { AppDeps } from './deps.ts';
import { handleError, sendError } from './errors.ts';
import { ApiError } from '../domain/errors.ts';
import { registerDocs } from './plugins/docs.ts';
import { methodNotAllowed, RouteTable } from './plugins/method-guard.ts';
import { requestIdFor } from './plugins/request-id.ts';
import { answerClientError, answerNodeRefusals, requireOneHost } from './client-errors.ts';
import { logAccess } from './plugins/access-log.ts';
import { instrumentRequests } from './plugins/request-metrics.ts';
import { installStrictParameters } from './strict-parameters.ts';
import { sharedCompilers } from './route-compilers.ts';
import { installFastReads } from './read-cache/cached-read.ts';
import { aggregationsRoutes } from './routes/aggregations.ts';
import { arbitrageRoutes } from './routes/arbitrage.ts';
import { depthRoutes } from './routes/depth.ts';
import { healthRoutes } from './routes/health.ts';
import { historyRoutes } from './routes/history.ts';
import { itemsAllRoutes } from './routes/items-all.ts';
import { itemsRoutes } from './routes/items.ts';
import { attributePricesRoutes } from './routes/attribute-prices.ts';
import { listingsRoutes } from './routes/listings.ts';
import { liquidityBulkRoutes } from './routes/liquidity-bulk.ts';
import { liquidityRoutes } from './routes/liquidity.ts';
import { inventoryRoutes } from './routes/inventory.ts';
import { alertsRoutes } from './routes/alerts.ts';
import { marketAnalyticsRoutes } from './routes/market-analytics.ts';
import { nbboRoutes } from './routes/nbbo.ts';
import { pricingRoutes } from './routes/pricing.ts';
import { recommendationsRoutes } from './routes/recommendations.ts';
import { schemaRoutes } from './routes/schema.ts';
import { statusRoutes } from './routes/status.ts';
import { streamRoutes } from './routes/stream.ts';
import { StreamHub } from './stream/hub.ts';
import { readMarketHealth } from './market-health-rows.ts';
import { DEFAULT_FEE_MODEL } from '../markets/fees.ts';
import { lingerWhenClosing } from './linger.ts';

export const BODY_LIMIT_BYTES = 64 * 1024;

/**
 * Routes registered after the API's own, with the app's book views: the web terminal
 * (src/terminal), which boot adds unless the operator turned it off.
 */
export type RouteSet = (app: App, deps: AppDeps, views: BookViews) => Promise<void> | void;

function frameworkError(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  reply.header('X-Request-ID', request.id);
  return handleError(error, request, reply);
}

function fastifyOptions(deps: AppDeps): FastifyHttpOptions<Server> {
  return {
    ...(deps.logger ? { loggerInstance: deps.logger } : { logger: false }),
    genReqId: requestIdFor,
    trustProxy: deps.trustProxy ?? false,
    bodyLimit: BODY_LIMIT_BYTES,
    return503OnClosing: false,
    routerOptions: {
      maxParamLength: 1024,
      ignoreTrailingSlash: true,
      ignoreDuplicateSlashes: true,
    },
    ajv: {
      customOptions: {
        // Parameters are typed strictly by installStrictParameters, never by ajv's coercion.
        coerceTypes: false,
        removeAdditional: false,
        allErrors: true,
        useDefaults: true,
      },
    },
    schemaController: { compilersFactory: sharedCompilers },
    frameworkErrors: frameworkError,
    clientErrorHandler: answerClientError,
    // Node answers a missing Host without the envelope; requireOneHost answers it instead.
    http: { requireHostHeader: false },
    // One access line per request only when asked for (logAccess); never Fastify's two.
    logController: new LogController({ disableRequestLogging: true }),
  };
}

const hubs = new WeakMap<object, StreamHub>();

/** The price-stream hub an app serves from (tests tick it with their manual clock). */
export function streamHubOf(app: object): StreamHub | undefined {
  return hubs.get(app);
}

/** The deps' hub, or one of the app's own (closed with the app). */
function streamHub(app: App, deps: AppDeps, views: BookViews): StreamHub {
  const hub = deps.streamHub ?? ownStreamHub(app, deps, views);
  app.addHook('preClose', async () => hub.endStreams());
  hubs.set(app, hub);
  return hub;
}

function ownStreamHub(app: App, deps: AppDeps, views: BookViews): StreamHub {
  const hub = new StreamHub({
    book: deps.book,
    clock: deps.clock,
    feeModel: deps.feeModel ?? DEFAULT_FEE_MODEL,
    healthStatuses: (game, now) =>
      new Map(readMarketHealth(deps, views, game, now).rows.map((row) => [row.id, row.status])),
    resolveItem: (game, id) => {
      const item = deps.catalogs[game].byId(id);
      return item && { id: item.id, marketHashName: item.marketHashName };
    },
    ...(deps.streamPositions ? { positions: deps.streamPositions } : {}),
    ...(deps.streamReplayMs !== undefined ? { replayMs: deps.streamReplayMs } : {}),
    ...(deps.streamTickMs !== undefined ? { tickMs: deps.streamTickMs } : {}),
  });
  app.addHook('onClose', async () => hub.close());
  return hub;
}

export async function buildApp(deps: AppDeps, routeSets: readonly RouteSet[] = []): Promise<App> {
  const app = Fastify(fastifyOptions(deps)).withTypeProvider<TypeBoxTypeProvider>();
  const routes = new RouteTable();
  app.decorateRequest('auth', null);
  app.decorateRequest('game', 'cs2');
  app.addHook('onRoute', (route) => routes.add(route));
  if (deps.metrics) instrumentRequests(app, deps.metrics);
  installStrictParameters(app);
  app.addHook('onRequest', async (request, reply) => {
    reply.header('X-Request-ID', request.id);
  });
  app.addHook('onRequest', requireOneHost);
  app.addHook('onRequest', methodNotAllowed(routes));
  if (deps.accessLog) logAccess(app);
  installFastReads(app, deps);
  answerNodeRefusals(app.server);
  app.setErrorHandler((error, request, reply) => {
    // An error answered before the body has all arrived (413) closes lingering (linger.ts).
    if (!request.raw.complete) lingerWhenClosing(request.raw.socket);
    return handleError(error, request, reply);
  });
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?', 1)[0] ?? '/';
    return sendError(reply, new ApiError(404, 'NOT_FOUND', `Cannot ${request.method} ${path}`));
  });

  if (deps.docs !== false) await registerDocs(app);
  const views = new BookViews(deps.book, deps.catalogs);
  app.addHook('onClose', async () => views.close());
  pricingRoutes(app, deps);
  itemsRoutes(app, deps, views);
  itemsAllRoutes(app, deps);
  statusRoutes(app, deps);
  healthRoutes(app, deps, views);
  nbboRoutes(app, deps);
  depthRoutes(app, deps);
  recommendationsRoutes(app, deps);
  aggregationsRoutes(app, deps);
  arbitrageRoutes(app, deps, views);
  historyRoutes(app, deps);
  marketAnalyticsRoutes(app, deps);
  listingsRoutes(app, deps);
  attributePricesRoutes(app, deps);
  schemaRoutes(app, deps);
  liquidityBulkRoutes(app, deps);
  liquidityRoutes(app, deps);
  inventoryRoutes(app, deps);
  alertsRoutes(app, deps);
  streamRoutes(app, deps, streamHub(app, deps, views));
  for (const routeSet of routeSets) await routeSet(app, deps, views);
  return app;
}
