/**
 * What the column form of pages costs reads: every series of a packed store read whole through
 * readRollups (10m and 1h), in CPU µs per bucket, with its pages as stored and again once every
 * page is rewritten in the row-major form pages had before (best of each; the pages are then
 * put back as stored).
 */
import { deflateRawSync } from 'node:zlib';
import type { MarketId } from '../src/domain/markets.ts';
import type { Game } from '../src/domain/games.ts';
import { TIERS } from '../src/pricing/rollup-buckets.ts';
import { pageEntries, pageRows } from '../src/store/sqlite/rollup-pages.ts';
import type { SqlitePriceStore } from '../src/store/sqlite/sqlite-price-store.ts';

const READ_TIERS = ['10m', '1h'] as const;
const ROUNDS = 5;

type SeriesRow = [id: number, game: Game, itemId: string, market: string];

/** CPU µs per bucket read, per tier, over every series. */
async function readEverything(store: SqlitePriceStore, series: SeriesRow[], toMs: number) {
  const perTier: number[] = [];
  for (const tier of READ_TIERS) {
    let buckets = 0;
    const started = process.cpuUsage();
    for (const [, game, itemId, market] of series) {
      const key = { game, itemId, market: market === '' ? null : (market as MarketId) };
      buckets += (await store.readRollups(key, tier, 0, toMs)).length;
    }
    const used = process.cpuUsage(started);
    perTier.push((used.user + used.system) / buckets);
  }
  return perTier;
}

/**
 * Rewrites every page of the store in the row-major form; returns the bytes of both forms and
 * a function that puts the pages back as they were stored.
 */
function rewriteAsRows(store: SqlitePriceStore) {
  let stored = 0;
  let rows = 0;
  const restores: (() => void)[] = [];
  for (const tier of TIERS) {
    const table = `history.pages_${tier}`;
    const pages = store.db
      .prepare<[], [number, number, Buffer]>(`SELECT series, period, data FROM ${table}`)
      .raw()
      .all();
    const update = store.db.prepare(`UPDATE ${table} SET data = ? WHERE series = ? AND period = ?`);
    store.db.transaction(() => {
      for (const [series, period, data] of pages) {
        const old = deflateRawSync(pageRows(tier, period, pageEntries(tier, period, data)));
        stored += data.length;
        rows += old.length;
        update.run(old, series, period);
      }
    })();
    restores.push(
      store.db.transaction(() => {
        for (const [series, period, data] of pages) update.run(data, series, period);
      }),
    );
  }
  return { stored, rows, restore: () => restores.forEach((restore) => restore()) };
}

export async function benchPageReads(store: SqlitePriceStore, toMs: number): Promise<string> {
  const series = store.db
    .prepare<[], SeriesRow>('SELECT id, game, item_id, market FROM history_series')
    .raw()
    .all();
  const best = (a: number[], b: number[]) => a.map((value, index) => Math.min(value, b[index]!));
  let asStored = [Infinity, Infinity];
  for (let round = 0; round < ROUNDS; round += 1) {
    asStored = best(asStored, await readEverything(store, series, toMs));
  }
  const bytes = rewriteAsRows(store);
  let asRows = [Infinity, Infinity];
  for (let round = 0; round < ROUNDS; round += 1) {
    asRows = best(asRows, await readEverything(store, series, toMs));
  }
  bytes.restore();
  const tiers = READ_TIERS.map(
    (tier, index) =>
      `${tier} ${asStored[index]!.toFixed(2)} µs as stored vs ${asRows[index]!.toFixed(2)} µs row-major (${(asStored[index]! / asRows[index]!).toFixed(2)}×)`,
  );
  return (
    `reads of every series, CPU per bucket: ${tiers.join(', ')}; ` +
    `page bytes as stored ${bytes.stored} vs row-major ${bytes.rows}`
  );
}
