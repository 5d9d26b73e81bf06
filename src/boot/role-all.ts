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
import { startIngestWorker } from '../ingest/worker/ingest-host.ts';
import { backfillHistory } from './backfill.ts';
import { chooseFxTable } from './fx-source.ts';
import { startHttpFront } from './http-front.ts';
import { restoreBook } from './restore.ts';
import { ensureSharedDemoKey } from './shared-demo-key.ts';
import { createAccessStore, createPriceStore, storeKind } from './stores.ts';

export interface AllRole {
  url: string;
  demoKey: string | null;
  close(): Promise<void>;
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
    const accessStore = createAccessStore(config, clock);
    closers.push(() => accessStore.close());
    await accessStore.init();
    const demoKey = await ensureSharedDemoKey(accessStore, clock, config.dataDir);

    const { prices: store, history } = createPriceStore(config, clock);
    closers.push(() => store.close());
    await store.init();

    const catalogs = loadCatalogs();
    const book = new Book();
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

    if (config.source === 'sim') {
      const worker = await startIngestWorker({
        config,
        book,
        fetchLog,
        onError: (message) => logger.error({ message }, 'ingest worker failed'),
      });
      closers.push(() => worker.stop());
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
    });
    closers.push(() => front.close());
    return { url: front.url, demoKey, close };
  } catch (error) {
    await close();
    throw error;
  }
}
