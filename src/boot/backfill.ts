/**
 * On an empty store the simulator backfills history through the normal import path
 * (normalise → store → book), one time step at a time, with a progress bar.
 */
import type { Book } from '../book/book.ts';
import type { Catalog } from '../catalog/catalog.ts';
import { DAY, HOUR, type Clock } from '../domain/clock.ts';
import type { Game } from '../domain/games.ts';
import type { FxTable } from '../ingest/fx.ts';
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

export async function backfillHistory(options: BackfillOptions) {
  const stepMs = options.stepMs ?? HOUR;
  const toMs = options.clock.now() - stepMs;
  const fromMs = toMs - options.days * DAY;
  const steps = Math.floor((toMs - fromMs) / stepMs) + 1;
  const progress = progressBar(`backfill ${options.days}d`, steps);
  const totals = { observations: 0, accepted: 0, rejected: 0 };
  let step = 0;
  for (const chunk of simBackfill({
    seed: options.seed,
    catalogs: options.catalogs,
    fromMs,
    toMs,
    stepMs,
    itemLimit: options.itemLimit,
  })) {
    const lines = chunk.map((observation, index) => ({ line: index + 1, observation }));
    const summary = await importObservations(lines, {
      catalogs: options.catalogs,
      fx: options.fx,
      book: options.book,
      store: options.store,
      clock: options.clock,
      maxRejectedListed: 0,
    });
    totals.observations += chunk.length;
    totals.accepted += summary.accepted;
    totals.rejected += summary.rejectedCount;
    step += 1;
    progress.update(step, `${totals.observations} observations`);
  }
  progress.finish(`${totals.accepted} observations stored`);
  return totals;
}
