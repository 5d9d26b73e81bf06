/**
 * The ingest runner over the simulated markets, as every role builds it: the FX table the
 * configuration picks, one adapter per market, committed batches handed to `sink` (the book's
 * owner: a worker posting to the HTTP thread, or the change publisher of the ingest role).
 */
import type { Book } from '../book/book.ts';
import type { loadCatalogs } from '../catalog/index.ts';
import type { ServeConfig } from '../config.ts';
import type { Clock } from '../domain/clock.ts';
import type { MarketId } from '../domain/markets.ts';
import type { FetchLog } from '../ingest/fetch-log.ts';
import { createIngestRunner, type IngestLogger, type IngestRunner } from '../ingest/runner.ts';
import { createSimAdapters } from '../markets/sim/adapters.ts';
import type { PriceStore } from '../store/price-store.ts';
import { chooseFxTable } from './fx-source.ts';

export interface SimIngestOptions {
  config: Pick<ServeConfig, 'source' | 'seed' | 'fxFile' | 'simItems'>;
  catalogs: ReturnType<typeof loadCatalogs>;
  store: Pick<PriceStore, 'writeBatch' | 'recordFetches'>;
  sink: Pick<Book, 'apply'>;
  fetchLog: Pick<FetchLog, 'append'>;
  clock: Clock;
  logger: IngestLogger;
  shouldPoll?: (market: MarketId) => boolean;
}

export interface SimIngest {
  runner: IngestRunner;
  markets: MarketId[];
}

export async function createSimIngest(options: SimIngestOptions): Promise<SimIngest> {
  const { config, catalogs, clock } = options;
  const fx = await chooseFxTable({ ...config, source: 'sim' }, clock.now());
  const adapters = createSimAdapters({
    seed: config.seed,
    catalogs,
    ...(config.simItems > 0 ? { universe: config.simItems } : {}),
  });
  const runner = createIngestRunner({
    adapters,
    catalogs,
    fx,
    book: options.sink,
    store: options.store,
    fetchLog: options.fetchLog,
    clock,
    logger: options.logger,
    ...(options.shouldPoll ? { shouldPoll: options.shouldPoll } : {}),
  });
  return { runner, markets: adapters.map((adapter) => adapter.info.id) };
}
