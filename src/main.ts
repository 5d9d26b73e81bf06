/**
 * Composition root: config → stores → catalog → book → ingest → HTTP. The only place that
 * picks implementations (SQLite stores, memory quotas, simulator adapters).
 */
import pino from 'pino';
import { createAccessService } from './access/access-service.ts';
import { createAdmin } from './access/admin.ts';
import { createMemoryRateLimiter } from './access/memory-rate-limiter.ts';
import { checkPlan } from './access/plan-gate.ts';
import { createSqliteAccessStore } from './access/sqlite-access-store.ts';
import { Book } from './book/book.ts';
import { backfillHistory } from './boot/backfill.ts';
import { ensureDemoKey } from './boot/demo-key.ts';
import { chooseFxTable } from './boot/fx-source.ts';
import { restoreBook } from './boot/restore.ts';
import { loadCatalogs } from './catalog/index.ts';
import { acquireServerLock, dataPaths, ensureDataDir } from './cli/data-dir.ts';
import type { ServeConfig } from './config.ts';
import { systemClock, type Clock } from './domain/clock.ts';
import { buildApp } from './http/app.ts';
import { ItemsAllCache } from './http/items-all-cache.ts';
import { startServer } from './http/server.ts';
import { FetchLog } from './ingest/fetch-log.ts';
import { startIngestWorker } from './ingest/worker/ingest-host.ts';
import { DEFAULT_RETENTION, RETENTION_INTERVAL_MS } from './ingest/retention.ts';
import { GAMES } from './domain/games.ts';
import { DEFAULT_FEE_MODEL, loadFeeModel } from './markets/fees.ts';
import { marketInfo } from './markets/registry.ts';
import { createSqlitePriceStore } from './store/sqlite/sqlite-price-store.ts';

export interface Service {
  url: string;
  demoKey: string | null;
  close(): Promise<void>;
}

export async function startService(
  config: ServeConfig,
  clock: Clock = systemClock,
): Promise<Service> {
  const logger = pino({ level: config.logLevel });
  const paths = dataPaths(config.dataDir);
  ensureDataDir(paths);
  const releaseLock = acquireServerLock(paths, config.port);
  const closers: (() => Promise<void> | void)[] = [releaseLock];
  const close = async () => {
    for (const closer of closers.reverse()) await closer();
  };
  try {
    const accessStore = createSqliteAccessStore({ path: paths.access });
    await accessStore.init();
    closers.push(() => accessStore.close());
    const demoKey = await ensureDemoKey(createAdmin({ store: accessStore, clock }), paths.demoKey);

    const store = createSqlitePriceStore({ path: paths.prices });
    await store.init();
    closers.push(() => store.close());

    const catalogs = loadCatalogs();
    const fx = await chooseFxTable(config, clock.now());
    const book = new Book();
    const restored = await restoreBook(store, book, clock.now());
    logger.info(restored, 'book restored from the store');

    if (config.source === 'sim' && config.backfillDays > 0 && (await store.isEmpty())) {
      const options = {
        seed: config.seed,
        days: config.backfillDays,
        itemLimit: config.backfillItems,
      };
      await backfillHistory({ ...options, catalogs, fx, book, store, clock });
    }

    const fetchLog = new FetchLog(clock);
    await fetchLog.load(store);
    const access = createAccessService({ store: accessStore });
    await access.refreshNow();
    access.startRefresh(250);
    closers.push(() => access.stop());

    if (config.source === 'sim') {
      const worker = await startIngestWorker({
        config: {
          pricesDbPath: paths.prices,
          seed: config.seed,
          simItems: config.simItems,
          fxFile: config.fxFile,
          logLevel: config.logLevel,
        },
        book,
        fetchLog,
        onError: (message) => logger.error({ message }, 'ingest worker failed'),
      });
      closers.push(() => worker.stop());
    }

    const bookRetention = setInterval(() => {
      const before = clock.now() - DEFAULT_RETENTION.listingsUnseenMs;
      for (const game of GAMES) book.pruneListings(game, before);
    }, RETENTION_INTERVAL_MS);
    bookRetention.unref();
    closers.push(() => clearInterval(bookRetention));

    const itemsAll = new ItemsAllCache({ book, catalog: catalogs.cs2, clock });
    closers.push(() => itemsAll.close());
    await itemsAll.rebuild();

    const app = await buildApp({
      clock,
      catalogs,
      book,
      authenticator: access,
      planGate: checkPlan,
      limiter: createMemoryRateLimiter(),
      healthLimiter: createMemoryRateLimiter(),
      fetchHistory: fetchLog,
      marketCadence: (market) => marketInfo(market).cadenceMs,
      itemsAll,
      feeModel: config.feesFile ? loadFeeModel(config.feesFile) : DEFAULT_FEE_MODEL,
      logger,
      trustProxy: config.trustProxy,
    });
    const server = await startServer(app, { port: config.port, host: config.host });
    closers.push(() => server.close());
    return { url: server.url, demoKey, close };
  } catch (error) {
    await close();
    throw error;
  }
}
