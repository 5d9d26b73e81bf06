/**
 * On an empty store the simulator backfills history through the normal import path
 * (normalise → store → book), a bounded chunk at a time, with a progress bar. It covers each
 * game's most popular items (`--backfill-items`) and always the items the docs' examples
 * use. Role `all` writes the named items before it listens, so every example shows history
 * right after the first `npm start`, and the popular band beside live ingest afterwards.
 */
import type { Book } from '../book/book.ts';
import type { Catalog } from '../catalog/catalog.ts';
import { DAY, HOUR, type Clock } from '../domain/clock.ts';
import type { Game } from '../domain/games.ts';
import type { FxTable } from '../ingest/fx.ts';
import { importObservations } from '../ingest/import-file.ts';
import { simBackfill } from '../markets/sim/backfill.ts';
import type { JobProgress, PriceStore } from '../store/price-store.ts';
import { progressBar } from './progress.ts';
import type { ServeConfig } from '../config.ts';
import { chooseFxTable } from './fx-source.ts';

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
  /** The last step's time (default one step before now). */
  toMs?: number;
  /** Which covered items this run writes (see simBackfill); default all. */
  cover?: 'all' | 'named' | 'popular';
  /** No progress bar. */
  quiet?: boolean;
  signal?: AbortSignal;
  /** Chunks a stopped run of the same band already wrote (see simBackfill). */
  skipChunks?: number;
  /** The progress stored with chunk number `done` (counted from the band's start). */
  progressAfter?: (done: number) => JobProgress;
}

type BackfillConfig = Pick<
  ServeConfig,
  'seed' | 'backfillDays' | 'backfillItems' | 'fxFile' | 'source'
>;

/**
 * The serve configuration's backfill (seed, days, items) around the given parts, converting
 * at the rates of the band's end: a band resumed later converts as its first part did.
 */
export async function configuredBackfill(
  config: BackfillConfig,
  parts: Pick<BackfillOptions, 'catalogs' | 'book' | 'store' | 'clock' | 'signal'> & {
    toMs: number;
  },
): Promise<BackfillOptions> {
  return {
    seed: config.seed,
    days: config.backfillDays,
    itemLimit: config.backfillItems,
    fx: await chooseFxTable(config, parts.toMs),
    ...parts,
  };
}

/**
 * The items the curl examples of README.md and docs/ name, backfilled whatever their popularity
 * rank (test/readme.test.ts keeps this list and the docs in step); the simulator also lists
 * them on every fetch of its listing markets, so their listings and buckets never run dry.
 */
export const EXAMPLE_ITEMS: readonly string[] = [
  'AK-47 | Redline (Field-Tested)',
  'AWP | Asiimov (Field-Tested)',
  'Tempered AK47',
  '★ Karambit | Doppler (Factory New)',
  '★ Karambit | Fade (Factory New)',
];

/** Covered items per game per transaction; a transaction spans a day of steps. */
export const BACKFILL_ITEMS_PER_CHUNK = 10;

/**
 * Generates and commits one chunk (a day × an item slice) at a time, each with its progress
 * when asked, yielding to the event loop between chunks so requests are served while it runs.
 * Stops between chunks once `signal` aborts.
 */
export async function backfillHistory(options: BackfillOptions) {
  const stepMs = options.stepMs ?? HOUR;
  const toMs = options.toMs ?? options.clock.now() - stepMs;
  const fromMs = toMs - options.days * DAY;
  const cover = options.cover ?? 'all';
  const label = `backfill ${options.days}d${cover === 'all' ? '' : ` (${cover} items)`}`;
  const progress = options.quiet ? null : progressBar(label, 1);
  const totals = { chunks: 0, observations: 0, accepted: 0, rejected: 0 };
  let shown = { done: 0, total: 1 };
  for (const chunk of simBackfill({
    seed: options.seed,
    catalogs: options.catalogs,
    fromMs,
    toMs,
    stepMs,
    itemLimit: options.itemLimit,
    alsoItems: EXAMPLE_ITEMS,
    cover,
    stepsPerChunk: Math.max(1, Math.round(DAY / stepMs)),
    itemsPerChunk: BACKFILL_ITEMS_PER_CHUNK,
    skipChunks: options.skipChunks ?? 0,
    onProgress: (done, total) => (shown = { done, total }),
  })) {
    if (options.signal?.aborted) break;
    const place = options.progressAfter?.(shown.done);
    const summary = await importObservations(
      chunk.map((observation, index) => ({ line: index + 1, observation })),
      {
        catalogs: options.catalogs,
        fx: options.fx,
        book: options.book,
        store: options.store,
        clock: options.clock,
        chunkSize: chunk.length + 1,
        maxRejectedListed: 0,
        ...(place ? { progress: place } : {}),
      },
    );
    totals.chunks += 1;
    totals.observations += chunk.length;
    totals.accepted += summary.accepted;
    totals.rejected += summary.rejectedCount;
    progress?.update(shown.done / shown.total, `${totals.observations} observations`);
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
  await options.store.flushRollups?.();
  progress?.finish(`${totals.accepted} observations stored`);
  return totals;
}
