/**
 * Starts the ingest worker thread and applies what it commits to the HTTP thread's book and
 * fetch log (and, with metrics on, its fetch and rejection counts), one small message at a time
 * and in arrival order, through a `SlicedQueue`: a backlog (the first polling wave, a backfill)
 * is applied a few ms at a time with requests served in between. The worker gets the catalogs
 * as slim data (src/catalog/slim.ts) rather than building its own.
 */
import { Worker } from 'node:worker_threads';
import { SlicedQueue } from '../../domain/sliced-queue.ts';
import type { Book } from '../../book/book.ts';
import type { IngestMetrics } from '../../metrics/ingest-metrics.ts';
import type { FetchLog } from '../../ingest/fetch-log.ts';
import { loadCatalogs, loadCs2Registries } from '../../catalog/load-catalogs.ts';
import { slimCatalogData } from '../../catalog/slim.ts';
import { INGEST_THREAD_NAME, raiseThreadsNamed } from './thread-priority.ts';
import type {
  HostMessage,
  IngestWorkerConfig,
  IngestWorkerData,
  WorkerMessage,
} from './messages.ts';

export interface IngestWorkerHandle {
  stop(): Promise<void>;
  send(message: HostMessage): void;
}

export interface IngestWorkerOptions {
  config: IngestWorkerConfig;
  book: Pick<Book, 'apply'>;
  fetchLog: Pick<FetchLog, 'append'>;
  /** Counts the worker's fetches and rejections (with metrics on). */
  metrics?: Pick<IngestMetrics, 'noteFetch' | 'noteRejections'>;
  onError: (message: string) => void;
  /** The worker finished a backfill the host asked for. */
  onBackfilled?: () => void;
  /** Tests: another worker entry, another old-generation limit. */
  entry?: URL;
  maxOldGenerationSizeMb?: number;
}

/**
 * The worker's heap bounds. Its live data after a full collection measured 70-155 MB on the
 * full catalogs (catalogs, the simulated world, the largest market's poll in flight, backfill
 * chunks), so the old-generation limit leaves over three times that. The limit also sets how
 * far V8 lets the heap grow between full collections: up to 4 × live from a 2 GB limit up (the
 * default), about 1.4 × at 512 MB. The young generation is committed whole once used. With
 * 192 MB young and no old limit the worker held 300-500 MB; with these, 190-260 MB.
 */
const INGEST_YOUNG_GENERATION_MB = 48;
const INGEST_OLD_GENERATION_MB = 512;

/** The worker ran out of heap (resourceLimits): Node ends it with this code. */
export function isOutOfMemory(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === 'ERR_WORKER_OUT_OF_MEMORY';
}

/** The entry beside this module: bootstrap.mjs in src/, or the server bundle's of that name. */
function spawnWorker(options: IngestWorkerOptions): Worker {
  return new Worker(options.entry ?? new URL('./bootstrap.mjs', import.meta.url), {
    workerData: {
      config: options.config,
      catalogs: slimCatalogData(loadCatalogs(), loadCs2Registries()),
    } satisfies IngestWorkerData,
    resourceLimits: {
      maxYoungGenerationSizeMb: INGEST_YOUNG_GENERATION_MB,
      maxOldGenerationSizeMb: options.maxOldGenerationSizeMb ?? INGEST_OLD_GENERATION_MB,
    },
  });
}

/**
 * Starts the worker. A worker that runs out of heap after it started is replaced by a new one
 * (logged through `onError`), so the heap limit cannot stop ingest; any other failure, or
 * running out before the first start finished, is reported and ends it.
 */
export function startIngestWorker(options: IngestWorkerOptions): Promise<IngestWorkerHandle> {
  let worker: Worker;
  let stopped: (() => void) | null = null;
  let started = false;
  return new Promise((resolve, reject) => {
    const handle: IngestWorkerHandle = {
      send: (message) => worker.postMessage(message),
      stop: () =>
        new Promise<void>((done) => {
          stopped = done;
          raiseThreadsNamed(INGEST_THREAD_NAME);
          worker.postMessage({ type: 'stop' } satisfies HostMessage);
        }).then(() => worker.terminate().then(() => undefined)),
    };
    /** Book, fetch log and counts, in the order the worker sent them. */
    const applied = new SlicedQueue<WorkerMessage>(
      (message) => {
        switch (message.type) {
          case 'batch':
            return options.book.apply(message.batch);
          case 'fetch':
            options.metrics?.noteFetch(message.record);
            return options.fetchLog.append(message.record);
          case 'rejections':
            return options.metrics?.noteRejections(message.market, message.game, message.counts);
          case 'backfilled':
            return options.onBackfilled?.();
        }
      },
      (error) =>
        options.onError(error instanceof Error ? (error.stack ?? error.message) : String(error)),
    );
    const onMessage = (message: WorkerMessage) => {
      switch (message.type) {
        case 'batch':
        case 'fetch':
        case 'rejections':
        case 'backfilled':
          return applied.push(message);
        case 'ready':
          started = true;
          return resolve(handle);
        case 'stopped':
          return stopped?.();
        case 'failed':
          options.onError(message.message);
          return reject(new Error(message.message));
      }
    };
    const launch = () => {
      worker = spawnWorker(options);
      worker.on('message', onMessage);
      worker.on('error', (error) => {
        options.onError(error.stack ?? String(error));
        if (isOutOfMemory(error) && started && stopped === null) return launch();
        reject(error);
      });
      worker.on('exit', () => stopped?.());
    };
    launch();
  });
}
