/**
 * On an empty store the simulator backfills history through the normal import path
 * (normalise → store → book), one time step at a time, with a progress bar. It covers each
 * game's most popular items (`--backfill-items`) and always the items the README's examples
 * use, so every example shows history right after the first `npm start`.
 */
import type { Book } from '../book/book.ts';
import type { Catalog } from '../catalog/catalog.ts';
import { DAY, HOUR, type Clock } from '../domain/clock.ts';
import type { Game } from '../domain/games.ts';
import type { FxTable } from '../ingest/fx.ts';
import type { Observation } from '../domain/observation.ts';
import { importObservations } from '../ingest/import-file.ts';
import { simBackfill } from '../markets/sim/backfill.ts';
import type { PriceStore } from '../store/price-store.ts';
import { progressBar } from '../cli/progress.ts';

export interface BackfillOptions {
  seed: number;
  days: number;
  itemLimit: number;
  stepMs?: number;
  catalogs: Record<Game, Catalog>;
  fx: FxTable;
  book: Pick<Book, 'apply'>;
  store: PriceStore;
  clock: Clock;
}

/**
 * The items the README's curl examples name, backfilled whatever their popularity rank
 * (test/readme.test.ts keeps this list and the README in step); the simulator also lists
 * them on every fetch of its listing markets, so their listings and buckets never run dry.
 */
export const EXAMPLE_ITEMS: readonly string[] = [
  'AK-47 | Redline (Field-Tested)',
  'AWP | Asiimov (Field-Tested)',
  'Tempered AK47',
  '★ Karambit | Doppler (Factory New)',
  '★ Karambit | Fade (Factory New)',
];

/** Several time steps per transaction: rollup pages are rewritten once per commit, not per step. */
const OBSERVATIONS_PER_TRANSACTION = 100_000;

export async function backfillHistory(options: BackfillOptions) {
  const stepMs = options.stepMs ?? HOUR;
  const toMs = options.clock.now() - stepMs;
  const fromMs = toMs - options.days * DAY;
  const steps = Math.floor((toMs - fromMs) / stepMs) + 1;
  const progress = progressBar(`backfill ${options.days}d`, steps);
  const totals = { observations: 0, accepted: 0, rejected: 0 };
  let step = 0;
  let pending: Observation[] = [];
  const flush = async () => {
    const lines = pending.map((observation, index) => ({ line: index + 1, observation }));
    pending = [];
    const summary = await importObservations(lines, {
      catalogs: options.catalogs,
      fx: options.fx,
      book: options.book,
      store: options.store,
      clock: options.clock,
      chunkSize: OBSERVATIONS_PER_TRANSACTION,
      maxRejectedListed: 0,
    });
    totals.accepted += summary.accepted;
    totals.rejected += summary.rejectedCount;
  };
  for (const chunk of simBackfill({
    seed: options.seed,
    catalogs: options.catalogs,
    fromMs,
    toMs,
    stepMs,
    itemLimit: options.itemLimit,
    alsoItems: EXAMPLE_ITEMS,
  })) {
    for (const observation of chunk) pending.push(observation);
    totals.observations += chunk.length;
    step += 1;
    if (pending.length >= OBSERVATIONS_PER_TRANSACTION) await flush();
    progress.update(step, `${totals.observations} observations`);
  }
  await flush();
  await options.store.flushRollups?.();
  progress.finish(`${totals.accepted} observations stored`);
  return totals;
}
