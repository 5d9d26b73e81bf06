/**
 * Disk per day of the default `npm start`, from one simulated day instead of a minute of a
 * live server: a stratified 1-in-K sample of both catalogs (every K-th item by simulator
 * popularity, so the mix of busy and quiet quotes is the full catalog's) polled by every
 * simulated market at its own cadence through the real ingest cycle and the SQLite store, on a
 * manual clock (so the store folds as often as in a real day). What is kept scales by K except
 * listings, which the simulator crawls for a fixed number of items per poll whatever the
 * catalog size.
 *
 * Printed: bytes written (`write_bytes` of this process, proc(5)) per sample day, not projected
 * to the full catalogs (a fold's rows share B-tree pages there, so bytes written grow slower
 * than the items; the footprint bench measures the full catalogs in real time), and what the data dir keeps
 * per day (history as folded, once packed and once 10-minute retention removed the day, raw
 * sales and fetch records: each table's pages from dbstat after VACUUM).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCatalog } from '../src/catalog/create-catalog.ts';
import { loadCatalogs } from '../src/catalog/index.ts';
import { DAY, manualClock, MINUTE } from '../src/domain/clock.ts';
import type { Game } from '../src/domain/games.ts';
import { runCycle } from '../src/ingest/cycle.ts';
import { createSimAdapters } from '../src/markets/sim/adapters.ts';
import { buildSimGame } from '../src/markets/sim/items.ts';
import { TIERS } from '../src/pricing/rollup-buckets.ts';
import { compactHistory } from '../src/store/history-compaction.ts';
import { createSqlitePriceStore } from '../src/store/sqlite/sqlite-price-store.ts';
import { simFx } from './full-book.ts';
import { writtenBytes } from './harness.ts';
import { KEEP_ALL, TENS_EXPIRED, tableBytes } from './history-data.ts';

const SEED = 42;
const START = Date.parse('2026-11-02T00:00:00Z');
/** Late enough that the simulated day has settled in every tier (1d pages: 64 days). */
const SETTLED = START + 72 * DAY;

/** Every `every`-th item of each game by simulator popularity rank. */
function sampleCatalogs(every: number) {
  const full = loadCatalogs();
  const sample = (game: Game) => {
    const ranked = buildSimGame(SEED, game, full[game].items).items;
    const kept = ranked.filter((_, rank) => rank % every === 0).map((entry) => entry.item);
    return createCatalog(game, kept, full[game].rarities);
  };
  return { cs2: sample('cs2'), rust: sample('rust') };
}

const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;

function groupBytes(tables: Map<string, number>, prefixes: readonly string[]): number {
  let total = 0;
  for (const [name, bytes] of tables) {
    if (prefixes.some((prefix) => name.startsWith(prefix))) total += bytes;
  }
  return total;
}

const HISTORY = ['rollups_', 'pages_', 'sqlite_autoindex_pages_', 'history_'];
/** Raw sales with their time index (and the small per-item sales statistics, same prefix). */
const GROWS = { sales: ['sales'], fetches: ['fetch'] } as const;

interface SampleDay {
  items: number;
  fetches: number;
  written: number;
  store: ReturnType<typeof createSqlitePriceStore>;
  dir: string;
}

/** One simulated day of a 1-in-`every` sample through the real ingest cycle and store. */
async function runSampleDay(every: number): Promise<SampleDay> {
  const catalogs = sampleCatalogs(every);
  const dir = mkdtempSync(join(tmpdir(), 'disk-day-'));
  const clock = manualClock(START);
  const store = createSqlitePriceStore({ path: join(dir, 'prices.db'), clock });
  await store.init();
  const adapters = createSimAdapters({ seed: SEED, catalogs });
  const deps = {
    catalogs,
    fx: () => simFx(clock.now()),
    book: { apply: () => undefined },
    store,
    clock,
    onBookError: (error: unknown) => console.error(error),
  };
  const before = writtenBytes('self');
  let fetches = 0;
  for (let at = START; at < START + DAY; at += MINUTE) {
    clock.set(at);
    for (const adapter of adapters) {
      if ((at - START) % adapter.info.cadenceMs !== 0) continue;
      for (const game of adapter.info.games as readonly Game[]) {
        const outcome = await runCycle(adapter, game, deps);
        await store.recordFetches([outcome.record]);
        fetches += 1;
      }
    }
  }
  await store.flushRollups();
  const items = catalogs.cs2.items.length + catalogs.rust.items.length;
  return { items, fetches, written: writtenBytes('self') - before, store, dir };
}

async function discard(day: SampleDay): Promise<void> {
  await day.store.close();
  rmSync(day.dir, { recursive: true, force: true });
}

/** Two sample days (1 in 4K and 1 in K): bytes written by each; what the larger keeps, scaled by K. */
export async function benchDiskDay(every = 50): Promise<void> {
  const full = loadCatalogs();
  const fullItems = full.cs2.items.length + full.rust.items.length;
  const small = await runSampleDay(every * 4);
  await discard(small);
  const large = await runSampleDay(every);
  console.log(
    `one simulated day of both catalogs' quotes at each market's cadence (${large.fetches} fetches), ` +
      `samples of 1 in ${every * 4} and 1 in ${every} items by popularity (${small.items} and ${large.items} items)`,
  );
  console.log(
    `disk written (write_bytes): ${mb(small.written)} and ${mb(large.written)} per sample day ` +
      `(${mb(small.written / small.items)} and ${mb(large.written / large.items)} per item); ` +
      `not projected to the full catalogs (${fullItems} items): see the footprint bench`,
  );
  printKept(large.store, fullItems / large.items, 'as folded');
  await compactHistory(large.store, SETTLED, KEEP_ALL);
  printKept(large.store, fullItems / large.items, 'packed');
  await compactHistory(large.store, SETTLED + 90 * DAY, TENS_EXPIRED);
  printKept(large.store, fullItems / large.items, 'once 10-minute retention removed it, packed');
  await discard(large);
}

function printKept(store: SampleDay['store'], scale: number, label: string) {
  store.db.exec('VACUUM; VACUUM history');
  const prices = tableBytes(store.db, 'main');
  const historyTables = tableBytes(store.db, 'history');
  const history = groupBytes(historyTables, HISTORY) * scale;
  const tiers = TIERS.map(
    (tier) =>
      `${tier} ${mb(groupBytes(historyTables, [`rollups_${tier}`, `pages_${tier}`, `sqlite_autoindex_pages_${tier}`]) * scale)}`,
  );
  const sales = groupBytes(prices, GROWS.sales) * scale;
  const fetches = groupBytes(prices, GROWS.fetches);
  const listings = groupBytes(prices, ['listing']);
  const sides = groupBytes(prices, ['side']) * scale;
  console.log(
    `kept per day, history ${label}: ${mb(history + sales + fetches)} ` +
      `(history ${mb(history)}: ${tiers.join(', ')}; raw sales ${mb(sales)}, fetch records ${mb(fetches)}); ` +
      `standing state: latest sides ${mb(sides)}, listings ${mb(listings)}`,
  );
}
