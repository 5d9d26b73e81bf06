/**
 * The simulator's first-start backfill for role `all`, split so it does not stand between a
 * new user and first prices: the items the docs' examples name are written before the
 * process listens (a fraction of a second), the popular band once the first polling wave is
 * in, beside live ingest, a chunk at a time. History is not needed to serve latest prices, and the book keeps the
 * newer of two snapshots, so live batches landing meanwhile are never overwritten by the
 * backfill's older ones. A process stopped halfway leaves the popular band unfinished, and
 * the next start resumes it (band-resume.ts).
 */
import type { Logger } from 'pino';
import type { Book } from '../book/book.ts';
import type { loadCatalogs } from '../catalog/index.ts';
import type { ServeConfig } from '../config.ts';
import { HOUR, type Clock } from '../domain/clock.ts';
import type { MarketId } from '../domain/markets.ts';
import type { FetchLog } from '../ingest/fetch-log.ts';
import type { PriceStore } from '../store/price-store.ts';
import { backfillHistory, configuredBackfill } from './backfill.ts';

export interface FirstBackfillDeps {
  config: ServeConfig;
  clock: Clock;
  logger: Logger;
  catalogs: ReturnType<typeof loadCatalogs>;
  book: Book;
  store: PriceStore;
}

/** The popular band waits at most this long for the first polling wave. */
export const FIRST_WAVE_CAP_MS = 60_000;
const FIRST_WAVE_CHECK_MS = 1_000;

/**
 * Resolves once every polled market has a fetch since `sinceMs` (the first polling wave,
 * which holds the most memory and CPU of a start), or after `capMs`.
 */
export function firstPollingWave(
  fetchLog: Pick<FetchLog, 'byMarket'>,
  markets: readonly MarketId[],
  sinceMs: number,
  capMs = FIRST_WAVE_CAP_MS,
): Promise<void> {
  const started = performance.now();
  return new Promise((resolve) => {
    const check = () => {
      const waiting = markets.some((market) => fetchLog.byMarket(market, sinceMs).length === 0);
      if (!waiting || performance.now() - started >= capMs) return resolve();
      setTimeout(check, FIRST_WAVE_CHECK_MS).unref();
    };
    check();
  });
}

export interface FirstBackfill {
  /** The last backfilled step's time: the popular band, wherever it runs, ends there too. */
  readonly toMs: number;
  /** Starts the popular band in the background (not after close); then runs `onDone`. */
  continueBeside(onDone: () => Promise<void> | void): void;
  /** Stops between chunks and waits for the chunk being written. */
  close(): Promise<void>;
}

/** Whether the configuration asks for a history backfill: the simulator with backfill days. */
export function backfillConfigured(config: Pick<ServeConfig, 'source' | 'backfillDays'>): boolean {
  return config.source === 'sim' && config.backfillDays > 0;
}

/** The simulator backfills on the first start only: an empty store. */
export async function needsFirstBackfill(
  config: Pick<ServeConfig, 'source' | 'backfillDays'>,
  store: Pick<PriceStore, 'isEmpty'>,
): Promise<boolean> {
  return backfillConfigured(config) && (await store.isEmpty());
}

/** Writes the named items, then returns the handle for the popular band. */
export async function startFirstBackfill(deps: FirstBackfillDeps): Promise<FirstBackfill> {
  const { config, clock, logger } = deps;
  const abort = new AbortController();
  const options = await configuredBackfill(config, {
    catalogs: deps.catalogs,
    book: deps.book,
    store: deps.store,
    clock,
    toMs: clock.now() - HOUR,
    signal: abort.signal,
  });
  await backfillHistory({ ...options, cover: 'named', quiet: true });
  let running: Promise<void> | null = null;
  return {
    toMs: options.toMs!,
    continueBeside(onDone) {
      if (abort.signal.aborted) return;
      running = backfillHistory({ ...options, cover: 'popular' })
        .then(async (totals) => {
          if (abort.signal.aborted) return;
          logger.info(totals, 'backfill finished');
          await onDone();
        })
        .catch((error: unknown) => logger.error({ err: error }, 'backfill failed'));
    },
    async close() {
      abort.abort();
      await running;
    },
  };
}
