/**
 * The first start's popular-items backfill, run on the ingest worker when the HTTP thread asks
 * (after the first polling wave). It writes through the worker's own store, which folds both
 * live ingest and the backfill as it journals them. Batches reach the HTTP thread's book
 * the way live ones do, each chunk's sides cut to the newest per side (`newestSides`: the book
 * keeps the newer of two snapshots, so the other 23 hours of a day's chunk would only cost the
 * HTTP thread their decoding). Each chunk stores the band's place with it (band-resume.ts).
 */
import type { Logger } from 'pino';
import { configuredBackfill } from '../backfill.ts';
import { runPhase, type BandPlace } from '../band-resume.ts';
import type { Catalog } from '../../catalog/catalog.ts';
import type { ServeConfig } from '../../config.ts';
import type { Clock } from '../../domain/clock.ts';
import type { Game } from '../../domain/games.ts';
import type { IngestBatch } from '../../domain/quote.ts';
import type { PriceStore } from '../../store/price-store.ts';
import { newestSides } from './messages.ts';

export interface WorkerBackfillDeps {
  config: ServeConfig;
  catalogs: Record<Game, Catalog>;
  store: PriceStore;
  clock: Clock;
  logger: Logger;
  apply: (batch: IngestBatch) => void;
}

export interface WorkerBackfill {
  /**
   * Writes the popular band from `place` on; resolves when done (true), or stopped or failed
   * (false; a failure is logged).
   */
  run(place: BandPlace): Promise<boolean>;
  /** Stops between chunks and waits for the chunk being written. */
  stop(): Promise<void>;
}

export function createWorkerBackfill(deps: WorkerBackfillDeps): WorkerBackfill {
  const abort = new AbortController();
  let running: Promise<boolean> = Promise.resolve(false);
  const write = async (place: BandPlace) => {
    const options = await configuredBackfill(deps.config, {
      catalogs: deps.catalogs,
      book: { apply: (batch) => deps.apply(newestSides(batch)) },
      store: deps.store,
      clock: deps.clock,
      toMs: place.toMs,
      signal: abort.signal,
    });
    const result = await runPhase(options, place);
    if (!result) return false;
    deps.logger.info(result.totals, 'backfill finished');
    return true;
  };
  return {
    run(place) {
      running = write(place).catch((error: unknown) => {
        deps.logger.error({ err: error }, 'backfill failed');
        return false;
      });
      return running;
    },
    async stop() {
      abort.abort();
      await running;
    },
  };
}
