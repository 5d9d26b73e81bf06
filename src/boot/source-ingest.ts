/**
 * The ingest runner over the configured source, as every role builds it: the simulated markets
 * (their own FX rates), or the live connectors (one adapter per polled market on the shared
 * outbound HTTP port; exchange rates from the rate source, refreshed and stored, or the
 * operator's FX file). Committed batches go to `sink` (the book's owner: a worker posting to
 * the HTTP thread, or the change publisher of the ingest role) and feed the item priorities
 * that per-item endpoints spend their budget on. With `--record DIR` every live poll's exchanges
 * and every change of the rates in force are written to DIR (recording/recording-writer.ts).
 */
import type { Book } from '../book/book.ts';
import type { loadCatalogs } from '../catalog/index.ts';
import type { ServeConfig } from '../config.ts';
import { MINUTE, type Clock } from '../domain/clock.ts';
import type { MarketId } from '../domain/markets.ts';
import type { IngestBatch } from '../domain/quote.ts';
import type { FetchLog } from '../ingest/fetch-log.ts';
import { DEFAULT_FX, loadFxTable } from '../ingest/fx.ts';
import { createFxRefresher, FX_MAX_AGE_MS } from '../ingest/fx-refresher.ts';
import { ItemPriorities } from '../ingest/priorities.ts';
import {
  createIngestRunner,
  type IngestLogger,
  type IngestRunner,
  type IngestRunnerOptions,
} from '../ingest/runner.ts';
import { nodeTimers } from '../ingest/schedule.ts';
import { createMarketHttp } from '../markets/http/http-client.ts';
import { ConnectorAdapter } from '../markets/live/connector-adapter.ts';
import { loadLiveSettings } from '../markets/live/markets-file.ts';
import type { Connector } from '../markets/connector.ts';
import type { MarketAdapter } from '../markets/market-adapter.ts';
import { createSimAdapters } from '../markets/sim/adapters.ts';
import type { HistoryStore } from '../store/history-store.ts';
import type { PriceStore } from '../store/price-store.ts';
import { withBucketHistory } from '../attributes/history-recorder.ts';
import { EXAMPLE_ITEMS } from './backfill.ts';
import { chooseFxTable } from './fx-source.ts';
import { createRecordingWriter } from './recording/recording-writer.ts';
import { credentialsFor, marketPlan } from './market-plan.ts';

export interface SourceIngestOptions {
  config: Pick<
    ServeConfig,
    'source' | 'seed' | 'fxFile' | 'simItems' | 'simDepthItems' | 'marketsFile'
  > &
    Partial<Pick<ServeConfig, 'recordDir' | 'recordMaxMb'>>;
  catalogs: ReturnType<typeof loadCatalogs>;
  store: Pick<PriceStore, 'writeBatch' | 'recordFetches' | 'saveFxRates' | 'loadFxRates'>;
  sink: Pick<Book, 'apply'>;
  /** Where attribute-bucket history goes (src/attributes); none is recorded without it. */
  bucketHistory?: Pick<HistoryStore, 'recordBucketObservations'> | null;
  fetchLog: Pick<FetchLog, 'append'>;
  clock: Clock;
  logger: IngestLogger;
  shouldPoll?: (market: MarketId) => boolean;
  fence?: IngestRunnerOptions['fence'];
  /** Every finished cycle, for the ingest metrics. */
  onCycle?: IngestRunnerOptions['onCycle'];
  /** Unmatched names per cycle (the item schema's learner). */
  onUnmapped?: IngestRunnerOptions['onUnmapped'];
  env?: NodeJS.ProcessEnv;
}

/** A fresh simulated start serves every market (the docs' examples show data) this long. */
export const SIM_FAULT_FREE_START_MS = 15 * MINUTE;

export interface SourceIngest {
  runner: IngestRunner;
  markets: MarketId[];
  priorities: ItemPriorities;
  /** Stops the runner, then whatever the source holds open (rate refresh, HTTP sockets). */
  close(): Promise<void>;
}

interface Source {
  adapters: MarketAdapter[];
  fx: Parameters<typeof createIngestRunner>[0]['fx'];
  fxMaxAgeMs?: number;
  close(): Promise<void>;
}

async function simSource(options: SourceIngestOptions): Promise<Source> {
  const { config, catalogs, clock } = options;
  const fx = await chooseFxTable({ ...config, source: 'sim' }, clock.now());
  const adapters = createSimAdapters({
    seed: config.seed,
    catalogs,
    ...(config.simItems > 0 ? { universe: config.simItems } : {}),
    ...(config.simDepthItems !== undefined ? { depthItemsPerFetch: config.simDepthItems } : {}),
    deepItems: EXAMPLE_ITEMS,
    faultsFrom: clock.now() + SIM_FAULT_FREE_START_MS,
  });
  return { adapters, fx, close: async () => undefined };
}

async function liveSource(
  options: SourceIngestOptions,
  priorities: ItemPriorities,
): Promise<Source> {
  const { config, clock, logger, store } = options;
  const env = options.env ?? process.env;
  const settings = loadLiveSettings(config.marketsFile);
  const plan = marketPlan(config, env);
  const http = createMarketHttp({ clock });
  const recorder = config.recordDir
    ? createRecordingWriter(config.recordDir, (config.recordMaxMb ?? 256) * 1024 * 1024)
    : null;
  const adapters: MarketAdapter[] = [];
  for (const [market, live] of settings.markets) {
    if (!plan.get(market)?.polled) continue;
    const { connector } = live;
    const tight = budgetWarning(connector, live.cadenceMs);
    if (tight) logger.warn({ market, cadenceMs: live.cadenceMs }, tight);
    adapters.push(
      new ConnectorAdapter({
        connector,
        channel: http.channel(market, { limits: connector.info.limits }),
        baseUrl: live.baseUrl,
        cadenceMs: live.cadenceMs,
        credentials: credentialsFor(connector, env),
        clock,
        timeoutMs: live.timeoutMs,
        priorities: (game) => priorities.list(game),
        recorder,
      }),
    );
  }
  if (config.fxFile) {
    const fx = await loadFxTable(config.fxFile);
    recorder?.ratesFrom(() => fx);
    return { adapters, fx, close: () => http.close() };
  }
  const refresher = createFxRefresher({
    http,
    store,
    clock,
    logger,
    timers: nodeTimers,
    fallback: DEFAULT_FX,
    url: settings.fxUrl,
  });
  recorder?.ratesFrom(() => refresher.current());
  await refresher.start();
  return {
    adapters,
    fx: () => refresher.current(),
    fxMaxAgeMs: FX_MAX_AGE_MS,
    close: async () => {
      refresher.stop();
      await http.close();
    },
  };
}

/**
 * A cadence at which even one request per poll and game exceeds a published limit: the polls
 * will then fail with `budget` (the limit always wins), so say so at boot.
 */
export function budgetWarning(connector: Connector, cadenceMs: number): string | null {
  const games = connector.info.games.length;
  for (const limit of connector.info.limits) {
    const polls = Math.ceil(limit.windowMs / cadenceMs) * games;
    if (polls > limit.requests) {
      return `polling every ${cadenceMs / 1000} s asks for at least ${polls} requests per ${limit.windowMs / 1000} s; the published limit is ${limit.requests}: some polls will fail with "budget"`;
    }
  }
  return null;
}

export async function createSourceIngest(options: SourceIngestOptions): Promise<SourceIngest> {
  const priorities = new ItemPriorities(options.catalogs, () => options.clock.now());
  const source =
    options.config.source === 'live'
      ? await liveSource(options, priorities)
      : await simSource(options);
  const sink = {
    apply(batch: IngestBatch) {
      priorities.noteBatch(batch);
      options.sink.apply(batch);
    },
  };
  const runner = createIngestRunner({
    adapters: source.adapters,
    catalogs: options.catalogs,
    fx: source.fx,
    ...(source.fxMaxAgeMs === undefined ? {} : { fxMaxAgeMs: source.fxMaxAgeMs }),
    book: sink,
    store: options.bucketHistory
      ? withBucketHistory(options.store, options.bucketHistory, options.catalogs.cs2)
      : options.store,
    fetchLog: options.fetchLog,
    clock: options.clock,
    logger: options.logger,
    ...(options.shouldPoll ? { shouldPoll: options.shouldPoll } : {}),
    ...(options.fence ? { fence: options.fence } : {}),
    ...(options.onCycle ? { onCycle: options.onCycle } : {}),
    ...(options.onUnmapped ? { onUnmapped: options.onUnmapped } : {}),
  });
  return {
    runner,
    markets: [...new Set(source.adapters.map((adapter) => adapter.info.id))],
    priorities,
    async close() {
      await runner.stop();
      await source.close();
    },
  };
}
