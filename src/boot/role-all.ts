/**
 * Role `all` (the default): one process. Ingest runs on a worker thread (its own store
 * connection) and posts committed batches to this thread's book; HTTP is served from that book.
 * Stores follow the configuration: SQLite under the data dir (then this process locks the data
 * dir) or PostgreSQL; quotas in memory or Redis.
 */
import type { Logger } from 'pino';
import { Book } from '../book/book.ts';
import { loadCatalogs, prefetchCatalogs } from '../catalog/index.ts';
import { createClosers, type Closers } from './closers.ts';
import { acquireServerLock, dataPaths, ensureDataDir } from './data-dir.ts';
import type { ServeConfig } from '../config.ts';
import type { Clock } from '../domain/clock.ts';
import { FetchLog } from '../ingest/fetch-log.ts';
import { GAMES } from '../domain/games.ts';
import { DemandCounter } from '../ingest/priorities.ts';
import { startIngestWorker, type IngestWorkerHandle } from './ingest-thread/ingest-host.ts';
import { bootSteps, type BootSteps } from './boot-steps.ts';
import { resumes } from './band-resume.ts';
import { bandToWrite, firstPollingWave, startFirstBackfill } from './first-backfill.ts';
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
  closers: Closers,
): void {
  const timer = setInterval(
    () => postDemand(worker, demand, catalogs, clock.now()),
    DEMAND_SHARE_MS,
  );
  timer.unref();
  closers.add(() => clearInterval(timer));
}

export async function startAllRole(
  config: ServeConfig,
  clock: Clock,
  logger: Logger,
): Promise<AllRole> {
  const closers = createClosers();
  let closed = false;
  const close = () => {
    closed = true;
    return closers.close();
  };
  const steps = bootSteps();
  prefetchCatalogs();
  try {
    if (storeKind(config) === 'sqlite') {
      const paths = dataPaths(config.dataDir);
      ensureDataDir(paths);
      closers.add(acquireServerLock(paths, config.port));
    }
    const metrics = createServiceMetrics(config);
    const metricsUrl = metrics ? await metrics.listen() : null;
    if (metrics) closers.add(() => metrics.close());
    const accessStore = createAccessStore(config, clock);
    closers.add(() => accessStore.close());
    await steps.timeAsync('accessStore', () => accessStore.init());

    // With an ingest worker, its store folds what a dead process left in the journal:
    // this thread's store does not fold it before the book is restored.
    const { prices: store, history } = createPriceStore(config, clock, {
      foldLeftoversOnOpen: !ingestPolled(config),
    });
    closers.add(() => store.close());
    await steps.timeAsync('storeInit', () => store.init());
    // Decided before the ingest worker can write its first batch.
    const band = await bandToWrite(config, store, clock);

    const book = new Book();
    metrics?.watchBook(book, clock);
    const fetchLog = new FetchLog(clock);
    await steps.timeAsync('fetchLog', () => fetchLog.load(store));
    // The book is restored while the catalogs build on their own thread (restoring needs no
    // catalog); the worker then boots on its thread while this one builds the HTTP front. The
    // book keeps the newer of two snapshots, so the order batches land in does not matter. On
    // a first start the worker waits for the named backfill: its store must not open while
    // this thread writes.
    let backfilled = () => {};
    const startTracked = () => {
      const started = startWorker(config, book, fetchLog, logger, metrics, steps, () =>
        backfilled(),
      );
      if (started) closers.add(async () => (await started.catch(() => null))?.stop());
      return started;
    };
    const restored = await steps.timeAsync('restore', () => restoreBook(store, book, clock.now()));
    logger.info(restored, 'book restored from the store');
    const catalogs = steps.time('catalogs', () => loadCatalogs());
    if (band && resumes(band))
      logger.info(band, 'resuming the unfinished backfill after the last chunk written');
    const backfill = band
      ? await steps.timeAsync('backfillNamed', () =>
          startFirstBackfill({ config, clock, logger, catalogs, book, store }, band),
        )
      : null;
    const pollsFrom = clock.now();
    const worker = startTracked();

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
    closers.add(() => front.close());
    // A restart serves the restored book without waiting for the worker to be up.
    if (worker) {
      worker.then(
        (handle) => shareDemand(handle, demand, catalogs, clock, closers),
        (error: unknown) => failedAfterListen(error, logger, close),
      );
    }
    // The popular band of a first start, or what a stopped run left of it.
    const popular = backfill?.popular ?? null;
    if (backfill) {
      closers.add(() => backfill.close()); // first: a running chunk finishes
    }
    if (backfill && popular) {
      const polled = [...marketPlan(config)].filter(([, plan]) => plan.polled);
      const wave = firstPollingWave(
        fetchLog,
        polled.map(([market]) => market),
        pollsFrom,
        config.firstWaveWaitMs,
      );
      backfilled = () => void front.refreshBulk();
      const handle = worker?.catch(() => null) ?? null;
      void Promise.all([wave, front.bulkBuilt, handle]).then(([, , ingest]) => {
        if (closed) return;
        // On the worker when there is one: its store then folds the backfill too.
        if (ingest) ingest.send({ type: 'backfill', place: popular });
        else backfill.continueBeside(() => backfilled());
      });
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

/** Whether some market is polled, so an ingest worker runs beside the HTTP thread. */
function ingestPolled(config: ServeConfig): boolean {
  return [...marketPlan(config).values()].some((market) => market.polled);
}

/** The worker failed once the process served: it stops, as a failed start would have. */
function failedAfterListen(error: unknown, logger: Logger, close: () => Promise<void>): void {
  logger.fatal({ err: error }, 'ingest worker failed to start: stopping');
  void close().finally(() => process.exit(1));
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
  if (!ingestPolled(config)) return null;
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
