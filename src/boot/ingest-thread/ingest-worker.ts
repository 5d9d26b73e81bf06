/**
 * The ingest worker thread (role `all`): polls the configured markets, normalises, commits to the
 * store on its own connection (SQLite file or PostgreSQL pool, as configured), and posts each
 * committed batch and fetch record to the HTTP thread, which applies them to its in-memory book.
 * Keeps parsing and synchronous SQLite writes off the thread that answers requests. With
 * REDIS_URL it also publishes each batch on the change bus, so `api` processes added beside
 * this one stay current. Its clock honours PRICING_CLOCK_OFFSET_FILE like the main thread's.
 * Its catalogs are the slim data the HTTP thread hands over (no item-data package here). It runs
 * at a lower scheduling priority than the HTTP thread (thread-priority.ts).
 */
import { getPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import pino from 'pino';
import { createClosers } from '../closers.ts';
import { createChangePublisher, type ChangePublisher } from '../change-publisher.ts';
import { clockFromEnv } from '../offset-clock.ts';
import { createSourceIngest } from '../source-ingest.ts';
import { openIngestStore } from '../stores.ts';
import { adoptCatalogData, loadCatalogs } from '../../catalog/load-catalogs.ts';
import { startLearningWhenLive } from '../schema-runtime.ts';
import type { FetchRecord, IngestBatch } from '../../domain/quote.ts';
import { createRedisChangeBus } from '../../events/redis-change-bus.ts';
import { leaseOwner } from '../../ingest/lease.ts';
import {
  INGEST_THREAD_NAME,
  lowerThreadPriority,
  nameThread,
  restoreThreadPriority,
} from './thread-priority.ts';
import { createWorkerBackfill } from './worker-backfill.ts';
import type { RejectionTally } from '../../ingest/rejections.ts';
import { applyRetention, RETENTION_INTERVAL_MS } from '../../ingest/retention.ts';
import {
  splitBatch,
  type HostMessage,
  type IngestWorkerData,
  type WorkerMessage,
} from './messages.ts';

const port = parentPort!;
const { config, catalogs: catalogData } = workerData as IngestWorkerData;
const post = (message: WorkerMessage) => port.postMessage(message);

/** The host counts fetches from the `fetch` messages; rejections by reason travel apart. */
function postRejections(record: FetchRecord, counts: RejectionTally): void {
  if (Object.keys(counts).length === 0) return;
  post({ type: 'rejections', market: record.market, game: record.game, counts });
}

async function run() {
  const startPriority = getPriority();
  lowerThreadPriority();
  nameThread(INGEST_THREAD_NAME);
  adoptCatalogData(catalogData);
  const logger = pino({ level: config.logLevel }).child({ thread: 'ingest' });
  const clock = clockFromEnv();
  const closers = createClosers();
  const { prices: store, history } = await openIngestStore(
    config,
    clock,
    (message) => logger.error({ message }, 'rollup fold failed'),
    closers,
  );
  const bus =
    config.redisUrl === null
      ? null
      : createRedisChangeBus({ url: config.redisUrl, prefix: config.redisPrefix, logger });
  if (bus) closers.add(() => bus.close());
  const publisher: ChangePublisher | null = bus
    ? createChangePublisher(bus, `all:${leaseOwner()}`, logger)
    : null;
  if (publisher) closers.add(() => publisher.flush());
  const toHost = (batch: IngestBatch) => {
    for (const part of splitBatch(batch)) post({ type: 'batch', batch: part });
    publisher?.apply(batch);
  };
  const learning = await startLearningWhenLive(config, clock, logger);
  if (learning) closers.add(() => learning.close());
  const ingest = await createSourceIngest({
    config,
    catalogs: learning?.catalogs ?? loadCatalogs(),
    ...(learning
      ? { onUnmapped: (market, game, names) => void learning.learner.notice(market, game, names) }
      : {}),
    store,
    bucketHistory: history,
    sink: { apply: toHost },
    fetchLog: { append: (record) => post({ type: 'fetch', record }) },
    ...(config.metricsPort === undefined ? {} : { onCycle: postRejections }),
    clock,
    logger,
  });
  closers.add(() => ingest.close());
  const backfill = createWorkerBackfill({
    config,
    catalogs: loadCatalogs(),
    store,
    clock,
    logger,
    apply: toHost,
  });
  closers.add(() => backfill.stop());
  port.on('message', (message: HostMessage) => {
    if (message.type === 'demand') return ingest.priorities.setDemand(message.game, message.names);
    if (message.type === 'backfill') {
      const finished = backfill.run(message.place);
      return void finished.then((done) => done && post({ type: 'backfilled' }));
    }
    restoreThreadPriority(startPriority);
    void closers.close().finally(() => post({ type: 'stopped' }));
  });
  const retention = setInterval(() => {
    applyRetention(store, clock.now()).catch((error: unknown) =>
      logger.error({ error: String(error) }, 'retention failed'),
    );
  }, RETENTION_INTERVAL_MS);
  retention.unref();
  closers.add(() => clearInterval(retention));
  ingest.runner.start();
  post({ type: 'ready' });
}

run().catch((error: unknown) =>
  post({ type: 'failed', message: (error as Error).stack ?? String(error) }),
);
