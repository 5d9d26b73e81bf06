/**
 * Data for the history benchmark: simulator history sent through the real ingest path
 * (simBackfill → normalise → writeBatch, one batch per market per step, as live fetches
 * commit), for the ingest rate, the sizes and the large store the latency reads run on.
 */
import type Database from 'better-sqlite3';
import type { Catalog } from '../src/catalog/catalog.ts';
import { DAY } from '../src/domain/clock.ts';
import type { BookObservation, Observation } from '../src/domain/observation.ts';
import type { FxTable } from '../src/ingest/fx.ts';
import { normalise } from '../src/ingest/normalise.ts';
import { simBackfill } from '../src/markets/sim/backfill.ts';
import type { PriceStore } from '../src/store/price-store.ts';

/** Compaction that keeps every tier whole (it only packs). */
export const KEEP_ALL = { retention: { '10m': null, '1h': null, '1d': null } } as const;
/** 10-minute buckets kept 90 days (their hours then stored), the rest kept. */
export const TENS_EXPIRED = { retention: { '10m': 90 * DAY, '1h': null, '1d': null } } as const;

export interface SimRun {
  catalogs: { cs2: Catalog };
  fx: FxTable;
  store: Pick<PriceStore, 'writeBatch'>;
  items: number;
  fromMs: number;
  toMs: number;
  stepMs: number;
  /** Leave the simulator's sales out (book snapshots only). */
  bookOnly?: boolean;
  /** Rewrites each market fetch before it is ingested (holdQuotes). */
  transform?: (fetch: Observation[]) => Observation[];
  /** Called before each step's fetches with the step's time (untimed). */
  beforeStep?: (atMs: number) => Promise<void>;
}

export interface IngestTiming {
  observations: number;
  /** Time inside normalise + writeBatch only (the simulator's generation is excluded). */
  ms: number;
}

function byMarket(chunk: readonly Observation[]): Observation[][] {
  const groups = new Map<string, Observation[]>();
  for (const observation of chunk) {
    const key = `${observation.game}/${observation.market}`;
    let group = groups.get(key);
    if (!group) groups.set(key, (group = []));
    group.push(observation);
  }
  return [...groups.values()];
}

/** Runs the simulator's history through normalise + writeBatch, one batch per market fetch. */
export async function ingestSimulated(run: SimRun): Promise<IngestTiming> {
  const timing = { observations: 0, ms: 0 };
  const now = run.toMs + DAY;
  for (const chunk of simBackfill({
    seed: 42,
    catalogs: { cs2: run.catalogs.cs2 },
    fromMs: run.fromMs,
    toMs: run.toMs,
    stepMs: run.stepMs,
    itemLimit: run.items,
    // The worst case for storage: every quote moves on every fetch.
    quotesHold: false,
  })) {
    const step = chunk.find((entry) => entry.kind === 'book');
    if (step && run.beforeStep) await run.beforeStep(step.fetchedAt);
    const observations = run.bookOnly ? chunk.filter((entry) => entry.kind !== 'sale') : chunk;
    for (const raw of byMarket(observations)) {
      const fetch = run.transform ? run.transform(raw) : raw;
      const started = performance.now();
      const { batch } = normalise(fetch, { catalogs: run.catalogs, fx: run.fx, now });
      await run.store.writeBatch(batch);
      timing.ms += performance.now() - started;
      timing.observations += fetch.length;
    }
  }
  return timing;
}

/**
 * Quiet quotes: every book snapshot repeats the levels its (market, item, side) showed at the
 * first fetch of its `holdMs` window, as a listing nobody reprices does. Sales are dropped.
 */
export function holdQuotes(holdMs: number): (fetch: Observation[]) => Observation[] {
  const held = new Map<string, BookObservation>();
  return (fetch) =>
    fetch.flatMap((observation): Observation[] => {
      if (observation.kind === 'sale') return [];
      if (observation.kind !== 'book') return [observation];
      const window = Math.floor(observation.fetchedAt / holdMs);
      const key = `${observation.market}|${observation.item}|${observation.side}|${window}`;
      const first = held.get(key);
      if (!first) {
        held.set(key, observation);
        return [observation];
      }
      return [{ ...first, fetchedAt: observation.fetchedAt }];
    });
}

/**
 * On-disk bytes per table of one attached file (dbstat: pages including B-tree overhead and
 * free space in them). Pages times the file's own page size: dbstat's pgsize of an attached
 * file is the main file's (1 KiB for the prices file, 4 KiB for the history file).
 */
export function tableBytes(db: Database.Database, schema = 'main'): Map<string, number> {
  const pageSize = db.pragma(`${schema}.page_size`, { simple: true }) as number;
  const rows = db
    .prepare<[string], { name: string; pages: number }>(
      'SELECT name, count(*) AS pages FROM dbstat(?) GROUP BY name',
    )
    .all(schema);
  return new Map(rows.map((row) => [row.name, row.pages * pageSize]));
}

/** What a read store holds: 180 days of every item at a daily step, a few items densely. */
export interface ReadStorePlan {
  endMs: number;
  days: number;
  fillerItems: number;
  fillerStepMs: number;
  denseItems: number;
  denseStepMs: number;
}

/**
 * Fills `store` with simulator backfill through the real ingest path: the `denseItems` most
 * popular items at `denseStepMs` over the whole span, with their sales (the items the latency
 * benchmark reads), then `fillerItems` items × all markets at `fillerStepMs`, book snapshots
 * only (the rest of the store's bulk: their sales, about 285k a day, would take over an hour).
 */
export async function buildReadStore(
  run: Omit<SimRun, 'items' | 'fromMs' | 'toMs' | 'stepMs'> & {
    store: Pick<PriceStore, 'writeBatch' | 'flushRollups'>;
  },
  plan: ReadStorePlan,
): Promise<IngestTiming> {
  const fromMs = plan.endMs - plan.days * DAY;
  const toMs = plan.endMs - plan.denseStepMs;
  const dense = await ingestSimulated({
    ...run,
    items: plan.denseItems,
    fromMs,
    toMs,
    stepMs: plan.denseStepMs,
  });
  const filler = await ingestSimulated({
    ...run,
    items: plan.fillerItems,
    fromMs,
    toMs,
    stepMs: plan.fillerStepMs,
    bookOnly: true,
  });
  const started = performance.now();
  await run.store.flushRollups?.();
  return {
    observations: dense.observations + filler.observations,
    ms: dense.ms + filler.ms + (performance.now() - started),
  };
}
