/**
 * The HTTP side of a process (roles `all` and `api`): key authentication from the access store
 * (cache refreshed every 250 ms; a failing refresh keeps the cached keys and is logged once per
 * outage), the quota limiters (boot/quotas.ts; monthly usage is written to the access store),
 * the pre-built whole-catalog payload, in-memory listing retention, then buildApp and listen.
 * Returns the URL and one close().
 */
import type { Logger } from 'pino';
import { createAccessService } from '../access/access-service.ts';
import type { AccessStore } from '../access/access-store.ts';
import { checkPlan } from '../access/plan-gate.ts';
import type { Book } from '../book/book.ts';
import type { loadCatalogs } from '../catalog/index.ts';
import type { ServeConfig } from '../config.ts';
import { MINUTE, type Clock } from '../domain/clock.ts';
import type { PositionFeed } from '../events/bus-positions.ts';
import { GAMES, type Game } from '../domain/games.ts';
import type { Catalog } from '../catalog/catalog.ts';
import { InventoryService } from '../inventory/service.ts';
import { createSteamInventorySource } from '../inventory/steam-source.ts';
import { buildApp } from '../http/app.ts';
import { ItemsAllCache } from '../http/items-all-cache.ts';
import { BulkLiquidityCache } from '../liquidity/bulk-cache.ts';
import { startServer } from '../http/server.ts';
import { parseTrustProxy } from '../access/trust-proxy.ts';
import type { FetchLog } from '../ingest/fetch-log.ts';
import { DEFAULT_RETENTION, RETENTION_INTERVAL_MS } from '../ingest/retention.ts';
import { DEFAULT_FEE_MODEL, loadFeeModel } from '../markets/fees.ts';
import type { HttpMetrics } from '../metrics/http-metrics.ts';
import { demandNotingCatalogs, noteDemand, type DemandCounter } from '../ingest/priorities.ts';
import { createClosers } from './closers.ts';
import { createRedisStreamSlots } from '../access/stream-slots.ts';
import { closeRedis, openRedis } from '../events/redis-support.ts';
import { bootSteps, type BootSteps } from './boot-steps.ts';
import { marketPlan } from './market-plan.ts';
import { createQuotaLimiters } from './quotas.ts';
import { createInventoryStore } from './stores.ts';
import { startAlerts } from './alerts.ts';
import { schemaErrorLog, startSchemaServing } from './schema-runtime.ts';
import type { HistoryStore } from '../store/history-store.ts';
import { terminalRoutes } from '../terminal/index.ts';

/** The whole-catalog payload is rebuilt at most this often after a book change. */
export const ITEMS_ALL_REBUILD_MS = 30_000;

export interface HttpFrontOptions {
  config: ServeConfig;
  clock: Clock;
  logger: Logger;
  catalogs: ReturnType<typeof loadCatalogs>;
  book: Book;
  fetchLog: FetchLog;
  accessStore: AccessStore;
  /** History rollups; null where the store does not serve them yet (history answers 503). */
  history: HistoryStore | null;
  /** Counts item lookups for the live connectors' per-item budgets (role `all`). */
  demand?: DemandCounter;
  /** Request latency and quota refusals (with metrics on). */
  metrics?: HttpMetrics;
  /** Where the boot step durations are recorded. */
  steps?: BootSteps;
  /** Scaled out: price-stream positions from the change bus (role `api`). */
  streamPositions?: PositionFeed;
}

export interface HttpFront {
  url: string;
  /** Settles once the bulk payloads' first builds finished (or failed). */
  bulkBuilt: Promise<void>;
  /** Rebuilds the bulk liquidity payload now (after a backfill added the book's past). */
  refreshBulk(): Promise<void>;
  close(): Promise<void>;
}

/** Logs the first failure of an outage and the recovery, nothing in between. */
function outageLogger(logger: Logger, what: string) {
  let failing = false;
  return {
    failed(error: unknown) {
      if (failing) return;
      failing = true;
      logger.error({ err: error }, `${what} unreachable: serving cached keys`);
    },
    succeeded() {
      if (!failing) return;
      failing = false;
      logger.info({}, `${what} reachable again`);
    },
  };
}

function watchedAccessStore(store: AccessStore, outage: ReturnType<typeof outageLogger>) {
  return {
    ...store,
    async version() {
      const version = await store.version();
      outage.succeeded();
      return version;
    },
  };
}

/** The inventory store and the Steam source behind the inventory routes. */
async function startInventory(
  config: ServeConfig,
  clock: Clock,
  catalogs: Readonly<Record<Game, Catalog>>,
  logger: Logger,
) {
  const store = createInventoryStore(config, clock);
  await store.init();
  const service = new InventoryService({
    store,
    source: createSteamInventorySource({ origin: config.inventoryUrl, clock }),
    catalogs,
    clock,
    onError: (error) => logger.error({ err: error }, 'inventory fetch failed'),
  });
  return { service, close: () => store.close() };
}

/** With Redis, open streams are counted across the deployment (access/stream-slots.ts). */
function openStreamSlots(config: ServeConfig, clock: Clock, logger: Logger) {
  if (config.redisUrl === null) return null;
  const redis = openRedis(config.redisUrl, { connectionName: 'pricing-streams' });
  const slots = createRedisStreamSlots({ redis, prefix: config.redisPrefix, clock, logger });
  return {
    slots,
    async close() {
      slots.close();
      await closeRedis(redis);
    },
  };
}

export async function startHttpFront(options: HttpFrontOptions): Promise<HttpFront> {
  const { config, clock, logger, catalogs, book } = options;
  const steps = options.steps ?? bootSteps();
  const closers = createClosers();
  const close = closers.close;
  try {
    const outage = outageLogger(logger, 'access store');
    const access = createAccessService({
      store: watchedAccessStore(options.accessStore, outage),
      onRefreshError: (error) => outage.failed(error),
    });
    await access.refreshNow();
    access.startRefresh(250);
    closers.add(() => access.stop());

    const quotas = createQuotaLimiters(config, logger, options.accessStore);
    closers.add(() => quotas.close());

    const bookRetention = setInterval(() => {
      const before = clock.now() - DEFAULT_RETENTION.listingsUnseenMs;
      for (const game of GAMES) book.pruneListings(game, before);
    }, RETENTION_INTERVAL_MS);
    bookRetention.unref();
    closers.add(() => clearInterval(bookRetention));

    const itemsAll = new ItemsAllCache({
      book,
      catalog: catalogs.cs2,
      clock,
      minIntervalMs: ITEMS_ALL_REBUILD_MS,
    });
    closers.add(() => itemsAll.close());

    const liquidityBulk = new BulkLiquidityCache({
      book,
      catalog: catalogs.cs2,
      clock,
      onError: (error) => logger.error({ err: error }, 'bulk liquidity build failed'),
    });
    closers.add(() => liquidityBulk.close());

    const schema = await steps.timeAsync('schema', () =>
      startSchemaServing({
        config,
        clock,
        catalogs,
        onError: schemaErrorLog(logger, clock),
      }),
    );
    closers.add(() => schema.close());
    // A first start's schema sync is one long write on this thread: done before requests come.
    await steps.timeAsync('schemaSync', () => schema.beforeListen);

    const inventory = await steps.timeAsync('inventory', () =>
      startInventory(config, clock, schema.catalogs, logger),
    );
    closers.add(() => inventory.close());

    const streamSlots = openStreamSlots(config, clock, logger);
    if (streamSlots) closers.add(() => streamSlots.close());

    const feeModel = config.feesFile ? loadFeeModel(config.feesFile) : DEFAULT_FEE_MODEL;
    const alerts = await steps.timeAsync('alerts', () =>
      startAlerts(config, clock, book, feeModel, logger),
    );
    closers.add(() => alerts.close());

    const plan = marketPlan(config);
    const app = await steps.timeAsync('buildApp', () =>
      buildApp(
        {
          clock,
          catalogs: options.demand
            ? demandNotingCatalogs(schema.catalogs, options.demand, () => clock.now())
            : schema.catalogs,
          ...(options.demand ? { noteItemRead: noteDemand(options.demand) } : {}),
          schema: schema.service,
          gameReads: schema.gameReads,
          book,
          authenticator: access,
          planGate: checkPlan,
          limiter: quotas.limiter,
          healthLimiter: quotas.healthLimiter,
          fetchHistory: options.fetchLog,
          marketCadence: (market) => plan.get(market)!.cadenceMs,
          marketNote: (market) => plan.get(market)?.note ?? null,
          itemsAll,
          liquidityBulk,
          inventory: inventory.service,
          alerts: alerts.service,
          ...(options.history ? { history: options.history } : {}),
          feeModel,
          logger,
          accessLog: config.accessLog,
          terminalPerMinute: config.terminalPerMinute,
          streamReplayMs: config.streamReplayMinutes * MINUTE,
          ...(streamSlots ? { streamSlots: streamSlots.slots } : {}),
          ...(options.streamPositions ? { streamPositions: options.streamPositions } : {}),
          trustProxy: parseTrustProxy(config.trustProxy),
          ...(options.metrics ? { metrics: options.metrics } : {}),
        },
        config.terminal ? [terminalRoutes] : [],
      ),
    );
    const server = await steps.timeAsync('listen', () =>
      startServer(app, { port: config.port, host: config.host }),
    );
    closers.add(() => server.close());
    schema.serve();
    // Both answer 503 until their first build; prices do not wait for them.
    const bulkBuilt = Promise.all([
      steps
        .timeAsync('itemsAll', () => itemsAll.rebuild())
        .catch((error: unknown) => logger.error({ err: error }, 'items/all build failed')),
      steps
        .timeAsync('liquidityBulk', () => liquidityBulk.start())
        .catch((error: unknown) => logger.error({ err: error }, 'bulk liquidity build failed')),
    ]).then(() => undefined);
    const refreshBulk = () =>
      liquidityBulk
        .rebuild()
        .catch((error: unknown) => logger.error({ err: error }, 'bulk liquidity build failed'));
    return { url: server.url, bulkBuilt, refreshBulk, close };
  } catch (error) {
    await close();
    throw error;
  }
}
