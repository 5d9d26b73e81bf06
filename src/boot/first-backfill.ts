/**
 * The simulator's first-start backfill for role `all`, split so it does not stand between a
 * new user and first prices: the items the docs' examples name are written before the
 * process listens (a fraction of a second), the popular band once the first polling wave is
 * in, beside live ingest, a chunk at a time. History is not needed to serve latest prices, and the book keeps the
 * newer of two snapshots, so live batches landing meanwhile are never overwritten by the
 * backfill's older ones. A process stopped halfway leaves its place in the store, and the next
 * start resumes after the last chunk written (band-resume.ts).
 */
import type { Logger } from 'pino';
import type { Book } from '../book/book.ts';
import type { loadCatalogs } from '../catalog/index.ts';
import type { ServeConfig } from '../config.ts';
import type { Clock } from '../domain/clock.ts';
import type { MarketId } from '../domain/markets.ts';
import type { FetchLog } from '../ingest/fetch-log.ts';
import type { PriceStore } from '../store/price-store.ts';
import { configuredBackfill } from './backfill.ts';
import { freshBand, runPhase, unfinishedBand, type BandPlace } from './band-resume.ts';

export interface FirstBackfillDeps {
  config: ServeConfig;
  clock: Clock;
  logger: Logger;
  catalogs: ReturnType<typeof loadCatalogs>;
  book: Book;
  store: PriceStore;
}

const FIRST_WAVE_CHECK_MS = 1_000;

/**
 * Resolves once every polled market has a fetch since `sinceMs` (the first polling wave,
 * which holds the most memory and CPU of a start), or after `capMs` (`firstWaveWaitMs`).
 */
export function firstPollingWave(
  fetchLog: Pick<FetchLog, 'byMarket'>,
  markets: readonly MarketId[],
  sinceMs: number,
  capMs: number,
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
  /** Where the popular band starts: its beginning, or where a stopped run left it. */
  readonly popular: BandPlace | null;
  /** Starts the popular band in the background (not after close); then runs `onDone`. */
  continueBeside(onDone: () => Promise<void> | void): void;
  /** Stops between chunks and waits for the chunk being written. */
  close(): Promise<void>;
}

/** Whether the configuration asks for a history backfill: the simulator with backfill days. */
export function backfillConfigured(config: Pick<ServeConfig, 'source' | 'backfillDays'>): boolean {
  return config.source === 'sim' && config.backfillDays > 0;
}

/**
 * The simulator backfills on the first start (an empty store) and goes on with a backfill a
 * stopped run left unfinished: where it starts, or null when there is nothing to write.
 */
export async function bandToWrite(
  config: Pick<ServeConfig, 'source' | 'backfillDays'>,
  store: Pick<PriceStore, 'isEmpty' | 'jobProgress'>,
  clock: Clock,
): Promise<BandPlace | null> {
  if (!backfillConfigured(config)) return null;
  const unfinished = await unfinishedBand(store);
  if (unfinished) return unfinished;
  return (await store.isEmpty()) ? freshBand(clock) : null;
}

/** Writes what is left of the named phase, then returns the handle for the popular band. */
export async function startFirstBackfill(
  deps: FirstBackfillDeps,
  place: BandPlace,
): Promise<FirstBackfill> {
  const { config, clock, logger } = deps;
  const abort = new AbortController();
  const options = await configuredBackfill(config, {
    catalogs: deps.catalogs,
    book: deps.book,
    store: deps.store,
    clock,
    toMs: place.toMs,
    signal: abort.signal,
  });
  const popular =
    place.phase === 'named'
      ? ((await runPhase({ ...options, quiet: true }, place))?.next ?? null)
      : place;
  let running: Promise<void> | null = null;
  return {
    popular,
    continueBeside(onDone) {
      if (abort.signal.aborted || !popular) return;
      running = runPhase(options, popular)
        .then(async (result) => {
          if (!result) return;
          logger.info(result.totals, 'backfill finished');
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
