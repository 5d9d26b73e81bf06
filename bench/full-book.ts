/**
 * The book a running simulator holds: one fetch of every simulated market and game at `now`
 * (no outages), parsed by the markets' real parsers and normalised as ingest does.
 */
import { Book } from '../src/book/book.ts';
import type { loadCatalogs } from '../src/catalog/index.ts';
import type { Game } from '../src/domain/games.ts';
import { DEFAULT_FX, type FxTable } from '../src/ingest/fx.ts';
import { normalise } from '../src/ingest/normalise.ts';
import { createSimAdapters } from '../src/markets/sim/adapters.ts';
import { simFxRates } from '../src/markets/sim/price-model.ts';

const SEED = 42;

export function simFx(now: number): FxTable {
  return {
    asOf: now,
    source: 'simulator',
    usdMicroPerUnit: { ...DEFAULT_FX.usdMicroPerUnit, ...simFxRates(SEED, now) },
  };
}

export async function fullBook(catalogs: ReturnType<typeof loadCatalogs>, now: number) {
  const book = new Book();
  const fx = simFx(now);
  for (const adapter of createSimAdapters({ seed: SEED, catalogs, faults: false })) {
    for (const game of adapter.info.games as readonly Game[]) {
      const ctx = { game, now };
      const parsed = adapter.parse(await adapter.fetchRaw(ctx), ctx);
      book.apply(normalise(parsed.observations, { catalogs, fx, now }).batch);
    }
  }
  return book;
}
