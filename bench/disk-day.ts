/**
 * Disk per day of the default `npm start`, in two parts.
 *
 * Written: the real server (`pricing serve --source sim`, full catalogs, backfill off: the first
 * start's backfill is a one-off, not steady state) on an empty data dir; after the first polling
 * wave has settled and the first fold is done, `write_bytes` of the server process (all
 * threads, proc(5)) over a steady window of one fold period, projected to a day, beside the data
 * dir's growth over the same window.
 *
 * Kept: one simulated day of a stratified 1-in-K sample of both catalogs (every K-th item by
 * simulator popularity, so the mix of busy and quiet quotes is the full catalog's) polled by
 * every simulated market at its own cadence through the real ingest cycle and the SQLite store,
 * on a manual clock; what the data dir keeps per day (history as folded, once packed and once
 * 10-minute retention removed the day, raw sales and fetch records: each table's pages from
 * dbstat after VACUUM), scaled by K except listings, which the simulator crawls for a fixed
 * number of items per poll whatever the catalog size.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
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
import { JournalSegments } from '../src/store/sqlite/journal-segments.ts';
import { replayJournal, SlotBases, type JournalSink } from '../src/store/sqlite/rollup-journal.ts';
import { rowFormatBlob } from '../src/store/sqlite/rollup-journal-support.ts';
import { createSqlitePriceStore } from '../src/store/sqlite/sqlite-price-store.ts';
import { FOLD_POLICY } from '../src/store/sqlite/store-rollups.ts';
import { simFx } from './full-book.ts';
import {
  type ChildServer,
  embeddedEnv,
  mb,
  PRICING_BIN,
  spawnServer,
  writtenBytes,
} from './harness.ts';
import { BENCH_ITEM } from './http-reads.ts';
import { waitForPrices } from './pinned.ts';
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
  journal: JournalSeen;
  store: ReturnType<typeof createSqlitePriceStore>;
  dir: string;
}

interface JournalSeen {
  entries: number;
  blobs: number;
  bytes: number;
  /** The same entries in the row format journaled before issue 31's columns. */
  rowBytes: number;
}

/** Counts the rollup journal blobs the store appends to its segments (their 8-byte frames too). */
function watchJournal(): JournalSeen {
  const seen = { entries: 0, blobs: 0, bytes: 0, rowBytes: 0 };
  /** Per store's segments, the bases of the segment it appends to. */
  const bases = new Map<JournalSegments, SlotBases>();
  const append = JournalSegments.prototype.append;
  JournalSegments.prototype.append = function (period, make) {
    append.call(this, period, (opens) => {
      const blob = make(opens);
      if (opens || !bases.has(this)) bases.set(this, new SlotBases());
      const counted = (sink: JournalSink): JournalSink => ({
        side: (...entry) => void ((seen.entries += 1), sink.side(...entry)),
        sale: (...entry) => void ((seen.entries += 1), sink.sale(...entry)),
      });
      const rows = rowFormatBlob((sink) =>
        replayJournal(blob, counted(sink), (own) => own, bases.get(this)!),
      );
      seen.blobs += 1;
      seen.bytes += blob.length + 8;
      seen.rowBytes += rows.length;
      return blob;
    });
  };
  return seen;
}

/** One simulated day of a 1-in-`every` sample through the real ingest cycle and store. */
async function runSampleDay(every: number): Promise<SampleDay> {
  const catalogs = sampleCatalogs(every);
  const dir = mkdtempSync(join(tmpdir(), 'disk-day-'));
  const clock = manualClock(START);
  const store = createSqlitePriceStore({ path: join(dir, 'prices.db'), clock });
  await store.init();
  const journal = watchJournal();
  const adapters = createSimAdapters({ seed: SEED, catalogs });
  const deps = {
    catalogs,
    fx: () => simFx(clock.now()),
    book: { apply: () => undefined },
    store,
    clock,
    onBookError: (error: unknown) => console.error(error),
  };
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
  return { items, fetches, journal, store, dir };
}

async function discard(day: SampleDay): Promise<void> {
  await day.store.close();
  rmSync(day.dir, { recursive: true, force: true });
}

/** Seconds after first prices before the window opens: every market's first wave is in. */
const SETTLE_S = Number(process.env.DISK_DAY_SETTLE_S ?? 150);
/**
 * The steady window over which bytes written are counted: one 10-minute period, so it holds one
 * fold, as each of a day's 144 periods does.
 */
const WINDOW_S = Number(process.env.DISK_DAY_WINDOW_S ?? 600);
/** Folds run at 10-minute boundaries of the clock (UTC epoch multiples of FOLD_PERIOD_MS). */
const { closeMs: FOLD_PERIOD_MS, graceMs: FOLD_GRACE_MS } = FOLD_POLICY;
/** How long after a boundary the window opens: that boundary's fold has committed. */
const AFTER_FOLD_S = 60;

/**
 * Seconds from now to AFTER_FOLD_S past the second fold from now (a period's boundary and its grace). The first fold after a
 * start folds everything journaled since and its checkpoint copies the start's pages (the full
 * book's first sides, 13.5 MB): a one-off that a window holding it counts as if it happened every
 * period, and it can run on past AFTER_FOLD_S (2026-11-30: its rows were written 33–94 s after
 * the boundary, the trace slowing it), so the window skips its period whole.
 */
function secondsPastSecondFold(now = Date.now()): number {
  const next = Math.ceil(now / FOLD_PERIOD_MS) * FOLD_PERIOD_MS + FOLD_PERIOD_MS + FOLD_GRACE_MS;
  return (next - now) / 1000 + AFTER_FOLD_S;
}

function dirBytes(dir: string): number {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) total += statSync(join(entry.parentPath, entry.name)).size;
  }
  return total;
}

const perDay = (bytes: number, seconds: number) =>
  `${(((bytes / seconds) * 86_400) / 1e9).toFixed(2)} GB`;

/**
 * The default server (simulator, full catalogs) on `dataDir` with the first start's backfill
 * off (a one-off, not steady state), once it serves prices; stopped by the caller.
 */
export async function startSteadyServer(dataDir: string): Promise<ChildServer> {
  const env = { ...embeddedEnv(), PRICING_BACKFILL_DAYS: '0' };
  const args = [PRICING_BIN, 'serve', '--port', '0', '--data', dataDir, '--source', 'sim'];
  const server = await spawnServer([...args, '--log-level', 'warn'], 600_000, env);
  try {
    const key = readFileSync(join(dataDir, 'demo-key.txt'), 'utf8').trim();
    await waitForPrices(`${server.url}/v1/pricing/${encodeURIComponent(BENCH_ITEM)}`, key, 600_000);
    return server;
  } catch (error) {
    await server.stop();
    throw error;
  }
}

/** write_bytes of the real default server over a steady window, and its data dir's growth. */
async function serverWrites(settleSeconds: number, windowSeconds: number): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'disk-day-server-'));
  const server = await startSteadyServer(dataDir);
  try {
    const ready = performance.now();
    await new Promise((resolve) => setTimeout(resolve, settleSeconds * 1000));
    await new Promise((resolve) => setTimeout(resolve, secondsPastSecondFold() * 1000));
    const from = (performance.now() - ready) / 1000;
    const pid = server.child.pid!;
    const [written, kept] = [writtenBytes(pid), dirBytes(dataDir)];
    await new Promise((resolve) => setTimeout(resolve, windowSeconds * 1000));
    const [writtenAfter, keptAfter] = [writtenBytes(pid), dirBytes(dataDir)];
    console.log(
      `real server, ${windowSeconds} s steady window from ${from.toFixed(0)} s after first prices ` +
        `(${AFTER_FOLD_S} s after the second fold): ` +
        `written (write_bytes) ${mb(writtenAfter - written)}, ${perDay(writtenAfter - written, windowSeconds)} per day; ` +
        `data dir growth ${mb(keptAfter - kept)}, ${perDay(keptAfter - kept, windowSeconds)} per day`,
    );
  } finally {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Bytes written by the real server over a steady window; what a sampled day keeps, scaled by K. */
export async function benchDiskDay(every = 50): Promise<void> {
  await serverWrites(SETTLE_S, WINDOW_S);
  const full = loadCatalogs();
  const fullItems = full.cs2.items.length + full.rust.items.length;
  const large = await runSampleDay(every);
  console.log(
    `kept: one simulated day of both catalogs' quotes at each market's cadence (${large.fetches} fetches), ` +
      `a sample of 1 in ${every} items by popularity (${large.items} items), scaled to ${fullItems} items`,
  );
  printJournal(large.journal, fullItems / large.items);
  printKept(large.store, fullItems / large.items, 'as folded');
  await compactHistory(large.store, SETTLED, KEEP_ALL);
  printKept(large.store, fullItems / large.items, 'packed');
  await compactHistory(large.store, SETTLED + 90 * DAY, TENS_EXPIRED);
  printKept(large.store, fullItems / large.items, 'once 10-minute retention removed it, packed');
  await discard(large);
}

/** The rollup journal's blobs over the day, scaled; the row format before in the same run. */
function printJournal(seen: JournalSeen, scale: number) {
  const perEntry = (bytes: number) => (bytes / seen.entries).toFixed(2);
  const gb = (bytes: number) => `${((bytes * scale) / 1e9).toFixed(2)} GB`;
  console.log(
    `rollup journal: ${Math.round(seen.entries * scale)} entries a day scaled (${seen.blobs} blobs in the sample, ` +
      `${Math.round(seen.entries / seen.blobs)} entries each): ${perEntry(seen.bytes)} bytes an entry, ` +
      `${gb(seen.bytes)} a day journaled; row format before: ${perEntry(seen.rowBytes)} bytes an entry, ` +
      `${gb(seen.rowBytes)} a day; ratio ${(seen.rowBytes / seen.bytes).toFixed(2)}`,
  );
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
