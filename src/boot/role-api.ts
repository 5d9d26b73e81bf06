/**
 * Role `api`: serves HTTP from its own in-memory book. Boot: subscribe to the Redis change bus,
 * load the book from the shared PostgreSQL store, apply what arrived meanwhile, then follow the
 * stream (live-book.ts; a possible loss reloads from the store). Fetch records come from the
 * store every 5 s (fetch-log-sync.ts). Accounts and keys are read from PostgreSQL, quotas are
 * counted in Redis (boot/quotas.ts). Nothing here writes prices: that is the ingest role's job.
 * The price streams follow the bus's positions (events/bus-positions.ts), so a stream begun
 * here resumes on any other API process.
 */
import type { Logger } from 'pino';
import { Book } from '../book/book.ts';
import { loadCatalogs } from '../catalog/index.ts';
import type { ServeConfig } from '../config.ts';
import type { Clock } from '../domain/clock.ts';
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { createBusPositions } from '../events/bus-positions.ts';
import { createRedisChangeBus } from '../events/redis-change-bus.ts';
import { FetchLog } from '../ingest/fetch-log.ts';
import { createClosers } from './closers.ts';
import { ensureSharedDemoKey } from './shared-demo-key.ts';
import { createFetchLogSync } from './fetch-log-sync.ts';
import { startHttpFront } from './http-front.ts';
import { startLiveBook } from './live-book.ts';
import { createServiceMetrics } from './metrics.ts';
import { createAccessStore, createPriceStore } from './stores.ts';

export interface ApiRole {
  url: string;
  demoKey: string | null;
  /** The operator metrics URL, null without `metricsPort`. */
  metricsUrl: string | null;
  close(): Promise<void>;
}

export async function startApiRole(
  config: ServeConfig,
  clock: Clock,
  logger: Logger,
): Promise<ApiRole> {
  const closers = createClosers();
  const close = closers.close;
  try {
    const metrics = createServiceMetrics(config);
    const metricsUrl = metrics ? await metrics.listen() : null;
    if (metrics) closers.add(() => metrics.close());
    const accessStore = createAccessStore(config, clock);
    closers.add(() => accessStore.close());
    await accessStore.init();

    const { prices: store, history } = createPriceStore(config, clock);
    closers.add(() => store.close());
    await store.init();

    const bus = createRedisChangeBus({
      url: config.redisUrl!,
      prefix: config.redisPrefix,
      logger,
      clock,
    });
    closers.add(() => bus.close());
    const origin = `api:${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
    const positions = createBusPositions(bus, origin, logger);
    closers.add(() => positions.close());
    const book = new Book();
    metrics?.watchBook(book, clock);
    const live = await startLiveBook({
      bus,
      store,
      book,
      clock,
      logger,
      onApplied: (event, position) => positions.applied(event, position),
    });
    closers.add(() => live.stop());

    const fetchLog = new FetchLog(clock);
    const fetchSync = createFetchLogSync({ store, fetchLog, clock, logger });
    await fetchSync.start();
    closers.add(() => fetchSync.stop());

    const catalogs = loadCatalogs();
    const front = await startHttpFront({
      config,
      clock,
      logger,
      catalogs,
      book,
      fetchLog,
      accessStore,
      history,
      streamPositions: positions,
      ...(metrics ? { metrics: metrics.http() } : {}),
    });
    closers.add(() => front.close());
    // Only a process that is listening creates the demo account (a failed listen creates none).
    const demoKey = await ensureSharedDemoKey(accessStore, clock, config.dataDir);
    return { url: front.url, demoKey, metricsUrl, close };
  } catch (error) {
    await close();
    throw error;
  }
}
