/**
 * The ingest worker thread (role `all`): polls the simulated markets, normalises, commits to the
 * store on its own connection, and posts each committed batch and fetch record to the HTTP
 * thread, which applies them to its in-memory book. Keeps parsing and synchronous SQLite writes
 * off the thread that answers requests.
 */
import { parentPort, workerData } from 'node:worker_threads';
import pino from 'pino';
import { loadCatalogs } from '../../catalog/index.ts';
import { systemClock } from '../../domain/clock.ts';
import { createSimAdapters } from '../../markets/sim/adapters.ts';
import { createSqlitePriceStore } from '../../store/sqlite/sqlite-price-store.ts';
import { chooseFxTable } from '../../boot/fx-source.ts';
import { resolveServeConfig } from '../../config.ts';
import { applyRetention, RETENTION_INTERVAL_MS } from '../retention.ts';
import { createIngestRunner } from '../runner.ts';
import {
  splitBatch,
  type HostMessage,
  type IngestWorkerConfig,
  type WorkerMessage,
} from './messages.ts';

const port = parentPort!;
const config = workerData as IngestWorkerConfig;
const post = (message: WorkerMessage) => port.postMessage(message);

async function run() {
  const logger = pino({ level: config.logLevel }).child({ thread: 'ingest' });
  const store = createSqlitePriceStore({ path: config.pricesDbPath });
  await store.init();
  const catalogs = loadCatalogs();
  const serveConfig = resolveServeConfig({
    source: 'sim',
    seed: String(config.seed),
    fxFile: config.fxFile ?? undefined,
  });
  const fx = await chooseFxTable(serveConfig, systemClock.now());
  const adapters = createSimAdapters({
    seed: config.seed,
    catalogs,
    ...(config.simItems > 0 ? { universe: config.simItems } : {}),
  });
  const runner = createIngestRunner({
    adapters,
    catalogs,
    fx,
    book: {
      apply: (batch) => splitBatch(batch).forEach((part) => post({ type: 'batch', batch: part })),
    },
    store,
    fetchLog: { append: (record) => post({ type: 'fetch', record }) },
    clock: systemClock,
    logger,
  });
  port.on('message', (message: HostMessage) => {
    if (message.type !== 'stop') return;
    clearInterval(retention);
    runner
      .stop()
      .then(() => store.close())
      .then(() => post({ type: 'stopped' }));
  });
  const retention = setInterval(() => {
    applyRetention(store, systemClock.now()).catch((error: unknown) =>
      logger.error({ error: String(error) }, 'retention failed'),
    );
  }, RETENTION_INTERVAL_MS);
  retention.unref();
  runner.start();
  post({ type: 'ready' });
}

run().catch((error: unknown) =>
  post({ type: 'failed', message: (error as Error).stack ?? String(error) }),
);
