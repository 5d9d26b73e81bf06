/**
 * Role `all` (the default): one process. Ingest runs on a worker thread (its own store
 * connection) and posts committed batches to this thread's book; HTTP is served from that book.
 * Stores follow the configuration: SQLite under the data dir (then this process locks the data
 * dir) or PostgreSQL; quotas in memory or Redis.
 */
import type { Logger } from 'pino';
import { Book } from '../book/book.ts';
import { loadCatalogs, prefetchCatalogs } from '../catalog/index.ts';
import { acquireServerLock, dataPaths, ensureDataDir } from '../cli/data-dir.ts';
import type { ServeConfig } from '../config.ts';
import type { Clock } from '../domain/clock.ts';
import { FetchLog } from '../ingest/fetch-log.ts';
import { GAMES } from '../domain/games.ts';
import { DemandCounter } from '../ingest/priorities.ts';
import { startIngestWorker, type IngestWorkerHandle } from '../ingest/worker/ingest-host.ts';
import { bootSteps, type BootSteps } from './boot-steps.ts';
import { firstPollingWave, needsFirstBackfill, startFirstBackfill } from './first-backfill.ts';
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

function shareDemand(
  worker: IngestWorkerHandle,
  demand: DemandCounter,
  catalogs: ReturnType<typeof loadCatalogs>,
  clock: Clock,
  closers: (() => Promise<void> | void)[],
): void {
  const timer = setInterval(
    () => postDemand(worker, demand, catalogs, clock.now()),
    DEMAND_SHARE_MS,
  );
  timer.unref();
  closers.push(() => clearInterval(timer));
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
  const steps = bootSteps();
  prefetchCatalogs();
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
    await steps.timeAsync('accessStore', () => accessStore.init());

    const { prices: store, history } = createPriceStore(config, clock);
    closers.push(() => store.close());
    await steps.timeAsync('storeInit', () => store.init());
    // Decided before the ingest worker can write its first batch.
    const backfillDue = await needsFirstBackfill(config, store);

    const book = new Book();
    metrics?.watchBook(book, clock);
    const fetchLog = new FetchLog(clock);
    await steps.timeAsync('fetchLog', () => fetchLog.load(store));
    // The worker boots on its own thread while this one restores the book and builds the
    // HTTP front; the book keeps the newer of two snapshots, so the order batches land in
    // does not matter. On a first start it waits for the named backfill: its store must not
    // open while this thread writes.
    let backfilled = () => {};
    const startTracked = () => {
      const started = startWorker(config, book, fetchLog, logger, metrics, steps, () =>
        backfilled(),
      );
      if (started) closers.push(async () => (await started.catch(() => null))?.stop());
      return started;
    };
    const early = backfillDue ? null : startTracked();

    const catalogs = steps.time('catalogs', () => loadCatalogs());
    const restored = await steps.timeAsync('restore', () => restoreBook(store, book, clock.now()));
    logger.info(restored, 'book restored from the store');
    const backfill = backfillDue
      ? await steps.timeAsync('backfillNamed', () =>
          startFirstBackfill({ config, clock, logger, catalogs, book, store }),
        )
      : null;
    const pollsFrom = clock.now();
    const worker = backfillDue ? startTracked() : early;

    const demand = new DemandCounter();
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
      steps,
      ...(metrics ? { metrics: metrics.http() } : {}),
    });
    closers.push(() => front.close());
    if (worker) shareDemand(await worker, demand, catalogs, clock, closers);
    if (backfill) {
      // Closed first: a running chunk finishes before the worker and the store stop.
      closers.push(() => backfill.close());
      const polled = [...marketPlan(config)].filter(([, plan]) => plan.polled);
      const wave = firstPollingWave(
        fetchLog,
        polled.map(([market]) => market),
        pollsFrom,
      );
      // On the worker when there is one: its fold thread then folds the backfill too.
      const handle = worker ? await worker : null;
      backfilled = () => void front.refreshBulk();
      void Promise.all([wave, front.bulkBuilt]).then(() =>
        handle
          ? handle.send({ type: 'backfill', toMs: backfill.toMs })
          : backfill.continueBeside(() => front.refreshBulk()),
      );
    }
    // Only a process that is listening creates the demo account (a failed listen creates none).
    const demoKey = await ensureSharedDemoKey(accessStore, clock, config.dataDir);
    void front.bulkBuilt.then(() => logger.info(steps.summary(), 'boot steps (ms)'));
    return { url: front.url, demoKey, metricsUrl, close };
  } catch (error) {
    await close();
    throw error;
  }
}

/** Starts the ingest worker when some market is polled; a failure surfaces where it is awaited. */
function startWorker(
  config: ServeConfig,
  book: Book,
  fetchLog: FetchLog,
  logger: Logger,
  metrics: ReturnType<typeof createServiceMetrics>,
  steps: BootSteps,
  onBackfilled: () => void,
): Promise<IngestWorkerHandle> | null {
  if (![...marketPlan(config).values()].some((market) => market.polled)) return null;
  const worker = steps.timeAsync('ingestWorker', () =>
    startIngestWorker({
      config,
      book,
      fetchLog,
      ...(metrics ? { metrics: metrics.ingest() } : {}),
      onError: (message) => logger.error({ message }, 'ingest worker failed'),
      onBackfilled,
    }),
  );
  worker.catch(() => undefined);
  return worker;
}
