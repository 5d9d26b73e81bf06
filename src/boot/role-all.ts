/**
 * Role `all` (the default): one process. Ingest runs on a worker thread (its own store
 * connection) and posts committed batches to this thread's book; HTTP is served from that book.
 * Stores follow the configuration: SQLite under the data dir (then this process locks the data
 * dir) or PostgreSQL; quotas in memory or Redis.
 */
import type { Logger } from 'pino';
import { Book } from '../book/book.ts';
import { loadCatalogs } from '../catalog/index.ts';
import { acquireServerLock, dataPaths, ensureDataDir } from '../cli/data-dir.ts';
import type { ServeConfig } from '../config.ts';
import type { Clock } from '../domain/clock.ts';
import { FetchLog } from '../ingest/fetch-log.ts';
import { GAMES } from '../domain/games.ts';
import { DemandCounter } from '../ingest/priorities.ts';
import { startIngestWorker, type IngestWorkerHandle } from '../ingest/worker/ingest-host.ts';
import { backfillHistory } from './backfill.ts';
import { chooseFxTable } from './fx-source.ts';
import { startHttpFront } from './http-front.ts';
import { marketPlan } from './market-plan.ts';
import { createServiceMetrics } from './metrics.ts';
import { restoreBook } from './restore.ts';
import { ensureSharedDemoKey } from './shared-demo-key.ts';
import { createAccessStore, createPriceStore, storeKind } from './stores.ts';

export interface AllRole {
  url: string;
  demoKey: string | null;
  /** The operator metrics URL, null without `metricsPort`. */
  metricsUrl: string | null;
  close(): Promise<void>;
}

/** How often the HTTP thread tells the ingest worker which items users asked for. */
export const DEMAND_SHARE_MS = 30_000;

function postDemand(
  worker: IngestWorkerHandle,
  demand: DemandCounter,
  catalogs: ReturnType<typeof loadCatalogs>,
  now: number,
): void {
  for (const game of GAMES) {
    const names = demand
      .top(game, now)
      .map((id) => catalogs[game].byId(id)?.marketHashName)
      .filter((name): name is string => name !== undefined);
    worker.send({ type: 'demand', game, names });
  }
}

export async function startAllRole(
  config: ServeConfig,
  clock: Clock,
  logger: Logger,
): Promise<AllRole> {
  const closers: (() => Promise<void> | void)[] = [];
  const close = async () => {
    for (const closer of closers.reverse()) await closer();
  };
  try {
    if (storeKind(config) === 'sqlite') {
      const paths = dataPaths(config.dataDir);
      ensureDataDir(paths);
      closers.push(acquireServerLock(paths, config.port));
    }
    const metrics = createServiceMetrics(config);
    const metricsUrl = metrics ? await metrics.listen() : null;
    if (metrics) closers.push(() => metrics.close());
    const accessStore = createAccessStore(config, clock);
    closers.push(() => accessStore.close());
    await accessStore.init();

    const { prices: store, history } = createPriceStore(config, clock);
    closers.push(() => store.close());
    await store.init();

    const catalogs = loadCatalogs();
    const book = new Book();
    metrics?.watchBook(book, clock);
    const restored = await restoreBook(store, book, clock.now());
    logger.info(restored, 'book restored from the store');

    if (config.source === 'sim' && config.backfillDays > 0 && (await store.isEmpty())) {
      const fx = await chooseFxTable(config, clock.now());
      await backfillHistory({
        seed: config.seed,
        days: config.backfillDays,
        itemLimit: config.backfillItems,
        catalogs,
        fx,
        book,
        store,
        clock,
      });
    }

    const fetchLog = new FetchLog(clock);
    await fetchLog.load(store);

    const demand = new DemandCounter();
    const polled = [...marketPlan(config).values()].some((market) => market.polled);
    if (polled) {
      const worker = await startIngestWorker({
        config,
        book,
        fetchLog,
        ...(metrics ? { metrics: metrics.ingest() } : {}),
        onError: (message) => logger.error({ message }, 'ingest worker failed'),
      });
      closers.push(() => worker.stop());
      const shareDemand = setInterval(
        () => postDemand(worker, demand, catalogs, clock.now()),
        DEMAND_SHARE_MS,
      );
      shareDemand.unref();
      closers.push(() => clearInterval(shareDemand));
    }

    const front = await startHttpFront({
      config,
      clock,
      logger,
      catalogs,
      book,
      fetchLog,
      accessStore,
      history,
      demand,
      ...(metrics ? { metrics: metrics.http() } : {}),
    });
    closers.push(() => front.close());
    // Only a process that is listening creates the demo account (a failed listen creates none).
    const demoKey = await ensureSharedDemoKey(accessStore, clock, config.dataDir);
    return { url: front.url, demoKey, metricsUrl, close };
  } catch (error) {
    await close();
    throw error;
  }
}
