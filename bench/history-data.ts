/**
 * Data for the history benchmark: simulator history sent through the real ingest path
 * (simBackfill → normalise → writeBatch, one batch per market per step, as live fetches
 * commit), and a large store cloned from real rollup rows with SQL (replicated days).
 */
import type Database from 'better-sqlite3';
import type { Catalog } from '../src/catalog/catalog.ts';
import { DAY } from '../src/domain/clock.ts';
import type { Observation } from '../src/domain/observation.ts';
import type { FxTable } from '../src/ingest/fx.ts';
import { normalise } from '../src/ingest/normalise.ts';
import { simBackfill } from '../src/markets/sim/backfill.ts';
import type { PriceStore } from '../src/store/price-store.ts';

export interface SimRun {
  catalogs: { cs2: Catalog };
  fx: FxTable;
  store: Pick<PriceStore, 'writeBatch'>;
  items: number;
  fromMs: number;
  toMs: number;
  stepMs: number;
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
  })) {
    for (const fetch of byMarket(chunk)) {
      const started = performance.now();
      const { batch } = normalise(fetch, { catalogs: run.catalogs, fx: run.fx, now });
      await run.store.writeBatch(batch);
      timing.ms += performance.now() - started;
      timing.observations += fetch.length;
    }
  }
  return timing;
}

/** On-disk bytes per table (dbstat: pages including B-tree overhead and free space in them). */
export function tableBytes(db: Database.Database): Map<string, number> {
  const rows = db
    .prepare<[], { name: string; bytes: number }>(
      'SELECT name, SUM(pgsize) AS bytes FROM dbstat GROUP BY name',
    )
    .all();
  return new Map(rows.map((row) => [row.name, row.bytes]));
}

const DAYS_CTE = (days: number) =>
  `WITH RECURSIVE days(k) AS (SELECT 1 UNION ALL SELECT k + 1 FROM days WHERE k < ${days})`;

/**
 * Repeats the rows of `tier` whose bucket lies in [fromBucket, fromBucket + perDay) for
 * `days` earlier days (bucket − k × perDay), for the series in `seriesFilter` (SQL).
 */
export function replicateDays(
  db: Database.Database,
  tier: '10m' | '1h' | '1d',
  fromBucket: number,
  perDay: number,
  days: number,
  seriesFilter = '1 = 1',
): number {
  const sql = `${DAYS_CTE(days)}
    INSERT INTO rollups_${tier} (series, bucket, ask, bid, sales, sale_units)
    SELECT r.series, r.bucket - days.k * ${perDay}, r.ask, r.bid, r.sales, r.sale_units
    FROM rollups_${tier} r, days
    WHERE r.bucket >= ${fromBucket} AND r.bucket < ${fromBucket + perDay} AND ${seriesFilter}
    ORDER BY r.series, r.bucket - days.k * ${perDay}`;
  return db.prepare(sql).run().changes;
}

/**
 * Clones every series of the store `copies` times under new item ids (`<id>~<n>`), with their
 * 1d rows only: filler items that make the store as large as a bigger catalog would.
 */
export function cloneItemsDaily(db: Database.Database, copies: number): number {
  const clone = db.transaction(() => {
    let rows = 0;
    const series = db
      .prepare<[], { id: number; game: string; item_id: string; market: string }>(
        "SELECT id, game, item_id, market FROM history_series WHERE item_id NOT LIKE '%~%'",
      )
      .all();
    const insert = db.prepare<[string, string, string]>(
      'INSERT INTO history_series (game, item_id, market) VALUES (?, ?, ?)',
    );
    const copy = db.prepare<[number, number]>(
      `INSERT INTO rollups_1d (series, bucket, ask, bid, sales, sale_units)
       SELECT ?, bucket, ask, bid, sales, sale_units FROM rollups_1d WHERE series = ?`,
    );
    for (let n = 1; n <= copies; n += 1) {
      for (const entry of series) {
        const id = Number(
          insert.run(entry.game, `${entry.item_id}~${n}`, entry.market).lastInsertRowid,
        );
        rows += copy.run(id, entry.id).changes;
      }
    }
    return rows;
  });
  return clone();
}
