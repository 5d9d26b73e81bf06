/**
 * History benchmark: ingest rate with rollups on (against the same store with rollups off),
 * on-disk bytes per item-day per tier (loose rows and pages) with a one-year projection for the
 * full catalog, as folded and once every period is packed, and
 * read latency of a 180-day hourly aggregate read and a 7-day 10-minute per-market read,
 * through the store + pure functions and through the full HTTP route (app.inject).
 */
import { looseRows } from '../src/store/sqlite/test-support.ts';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadCatalogs } from '../src/catalog/index.ts';
import { DAY, HOUR, MINUTE } from '../src/domain/clock.ts';
import type { Observation } from '../src/domain/observation.ts';
import { compactHistory, DEFAULT_RETENTION } from '../src/store/history-compaction.ts';
import { FOLD_POLICY } from '../src/store/sqlite/store-rollups.ts';
import { DEFAULT_FX, type FxTable } from '../src/ingest/fx.ts';
import { simFxRates } from '../src/markets/sim/price-model.ts';
import { TIERS } from '../src/pricing/rollup-buckets.ts';
import {
  createSqlitePriceStore,
  type SqlitePriceStore,
} from '../src/store/sqlite/sqlite-price-store.ts';
import { benchFoldWrites } from './history-fold-writes.ts';
import {
  buildReadStore,
  holdQuotes,
  ingestSimulated,
  KEEP_ALL,
  TENS_EXPIRED,
  tableBytes,
  type ReadStorePlan,
} from './history-data.ts';

/** The end of the simulated history (a UTC midnight). */
const END = Date.parse('2026-11-20T00:00:00Z');
const FULL_CATALOG_ITEMS = 40_000;
/** Series per item in the projection: ~20 markets plus the aggregate. */
const FULL_SERIES_PER_ITEM = 21;

/** Days of a year each tier holds at default retention (null: kept forever). */
function keptDaysInAYear(tier: (typeof TIERS)[number]): number {
  const kept = DEFAULT_RETENTION[tier];
  return kept === null ? 365 : Math.min(365, kept / DAY);
}

function fxAt(ms: number): FxTable {
  return {
    asOf: ms,
    source: 'simulator',
    usdMicroPerUnit: { ...DEFAULT_FX.usdMicroPerUnit, ...simFxRates(42, ms) },
  };
}

function openStore(dir: string, name: string, rollups = true): Promise<SqlitePriceStore> {
  const store = createSqlitePriceStore({ path: join(dir, name), rollups });
  return store.init().then(() => store);
}

async function benchIngest(dir: string, catalogs: ReturnType<typeof loadCatalogs>) {
  const run = { catalogs, fx: fxAt(END), items: 2_000, stepMs: 2 * MINUTE };
  /** A sustained hour of fetches: 30 rounds, long enough for folds to run during ingest. */
  const window = { fromMs: END - 60 * MINUTE, toMs: END - 2 * MINUTE };
  const rates: number[] = [];
  for (const rollups of [false, true]) {
    const store = await openStore(dir, `ingest-${rollups}.db`, rollups);
    const cpu = process.cpuUsage();
    const timing = await ingestSimulated({ ...run, ...window, store });
    const started = performance.now();
    await store.flushRollups();
    timing.ms += performance.now() - started;
    const { user, system } = process.cpuUsage(cpu);
    await store.close();
    rates.push((timing.observations / timing.ms) * 1000);
    console.log(
      `ingest, 2,000 items × all cs2 markets, 30 fetch rounds (one simulated hour), one batch per market fetch, rollups ${rollups ? 'on' : 'off'}: ` +
        `${Math.round(rates.at(-1)!)} observations/s (${timing.observations} observations, normalise + writeBatch + the final fold); ` +
        `process CPU ${((user + system) / timing.observations).toFixed(2)} µs per observation (simulator included)`,
    );
  }
  console.log(`ingest ratio, rollups on vs off: ${(rates[1]! / rates[0]!).toFixed(2)}`);
  console.log(
    `fold policy: what was committed before each ${FOLD_POLICY.closeMs / 60_000}-minute boundary, once it passed, or after ${FOLD_POLICY.batches} batches`,
  );
}

interface SizeScenario {
  name: string;
  file: string;
  transform?: (fetch: Observation[]) => Observation[];
}

const SIZE_SCENARIOS: SizeScenario[] = [
  { name: 'every price moving on every fetch (the simulator as is)', file: 'sizes-moving.db' },
  {
    name: 'quiet: each quote held for an hour, no sales (listings nobody reprices)',
    file: 'sizes-quiet.db',
    transform: holdQuotes(HOUR),
  },
  {
    name: 'stale: each quote held for the whole day, no sales',
    file: 'sizes-stale.db',
    transform: holdQuotes(DAY),
  },
];

type TierBytes = Record<(typeof TIERS)[number], number>;

/**
 * A year of the full catalog at default retention: 10-minute buckets for their retention, hours
 * for theirs, of which the first days as stored next to their 10-minute buckets (`tiers['1h']`:
 * none where they are derived) and the rest as stored once retention removed those
 * (`expiredHours`), days for the whole year.
 */
function yearOf(tiers: TierBytes, expiredHours: number): number {
  const tens = keptDaysInAYear('10m');
  const perItem =
    (tiers['10m'] + tiers['1h']) * tens +
    expiredHours * Math.max(0, keptDaysInAYear('1h') - tens) +
    tiers['1d'] * keptDaysInAYear('1d');
  return perItem * FULL_CATALOG_ITEMS;
}

/**
 * Per tier, on-disk bytes per item-day, with the one-year full-catalog projection;
 * `expiredHours`: the hours' bytes once 10-minute retention removed their buckets (by default
 * those stored now; null: no projection). Returns the per-tier figures.
 */
function printSizes(
  store: SqlitePriceStore,
  { items, days }: SizeSpan,
  label: string,
  expiredHours?: number | null,
): TierBytes {
  store.db.exec('VACUUM history');
  const bytes = tableBytes(store.db, 'history');
  const seriesCount = store.db
    .prepare<[], number>('SELECT count(*) FROM history_series')
    .pluck()
    .get()!;
  const seriesPerItem = seriesCount / items;
  const tiers = { '10m': 0, '1h': 0, '1d': 0 };
  const perTier: string[] = [];
  for (const tier of TIERS) {
    const tables = [`rollups_${tier}_`, `pages_${tier}`, `sqlite_autoindex_pages_${tier}_1`];
    const ofTier = [...bytes].filter(([name]) => tables.some((table) => name.startsWith(table)));
    const stored = ofTier.reduce((sum, [, size]) => sum + size, 0);
    const perItemDay = stored / items / days;
    tiers[tier] = (perItemDay * FULL_SERIES_PER_ITEM) / seriesPerItem;
    perTier.push(
      `${tier} ${(tiers[tier] / 1000).toFixed(1)} KB (${(perItemDay / seriesPerItem).toFixed(0)} B per series-day measured)`,
    );
  }
  const yearBytes = yearOf(tiers, expiredHours ?? tiers['1h']);
  const year = `one year of the full catalog (${FULL_CATALOG_ITEMS} items, default retention: ${retentionNote()}): ${(yearBytes / 1e9).toFixed(0)} GB`;
  console.log(
    `  ${label}: bytes per item-day at ${FULL_SERIES_PER_ITEM} series per item: ${perTier.join(', ')}` +
      (expiredHours === null ? '' : `; ${year}`),
  );
  return tiers;
}

/** Items and whole UTC days a size scenario ingests. */
interface SizeSpan {
  items: number;
  days: number;
}

/**
 * The sizes' span: 9 weeks from a day that starts both an hourly page's week and a daily
 * page's 64 days, so every 10-minute and hourly page is full and the daily pages hold 63 of
 * their 64 buckets (one day packed alone overstated 1h by about 17% and 1d by about 44%).
 */
const SIZES: SizeSpan & { fromMs: number } = {
  items: 10,
  days: 63,
  fromMs: Math.floor((END - DAY) / (448 * DAY)) * 448 * DAY,
};

/** Late enough that every period of the span has ended and settled (1d: 64 days). */
const ALL_PACKED = SIZES.fromMs + (SIZES.days + 72) * DAY;

function retentionNote(): string {
  return `10m ${keptDaysInAYear('10m')} days, 1h ${keptDaysInAYear('1h')} days, 1d the year`;
}

/**
 * Nine weeks of 10 items through full ingest, per scenario: bytes per item-day per tier on
 * full pages, projected, as folded (loose rows) and once packed into pages.
 */
export async function benchSizes(dir: string, catalogs: ReturnType<typeof loadCatalogs>) {
  const { items, days, fromMs } = SIZES;
  for (const scenario of SIZE_SCENARIOS) {
    const store = await openStore(dir, scenario.file);
    const timing = await ingestSimulated({
      catalogs,
      fx: fxAt(END),
      store,
      items,
      fromMs,
      toMs: fromMs + days * DAY - 10 * MINUTE,
      stepMs: 10 * MINUTE,
      transform: scenario.transform,
    });
    await store.flushRollups();
    console.log(
      `sizes, ${scenario.name}: ${items} items × ${days} days (${new Date(fromMs).toISOString().slice(0, 10)} on, full pages) at a 10-minute step through full ingest ` +
        `(${timing.observations} observations), after VACUUM`,
    );
    printSizes(store, SIZES, 'as folded');
    const started = performance.now();
    const { packed } = await compactHistory(store, ALL_PACKED, KEEP_ALL);
    const ms = performance.now() - started;
    const rows = TIERS.map((tier) => `${packed[tier]} (${tier})`).join(' + ');
    console.log(`  packing pass: ${rows} buckets packed into pages in ${ms.toFixed(0)} ms`);
    const packedTiers = printSizes(store, SIZES, 'packed (hours derived)');
    await compactHistory(store, ALL_PACKED + 90 * DAY, TENS_EXPIRED);
    const expired = printSizes(store, SIZES, 'once 10-minute retention removed the days', null);
    const year = yearOf(packedTiers, expired['1h']) / 1e9;
    console.log(
      `  one year, packed, with the hours stored after 10-minute retention (${retentionNote()}): ${year.toFixed(0)} GB`,
    );
    await store.close();
  }
}

const READ_STORE: ReadStorePlan = {
  endMs: END,
  days: 180,
  fillerItems: 2_000,
  fillerStepMs: DAY,
  denseItems: 4,
  denseStepMs: 10 * MINUTE,
};

/** 2,000 items × all markets × 180 days of simulator backfill, through the ingest path. */
async function readStore(dir: string, catalogs: ReturnType<typeof loadCatalogs>) {
  const store = await openStore(dir, 'reads.db');
  const started = performance.now();
  const timing = await buildReadStore({ catalogs, fx: fxAt(END), store }, READ_STORE);
  const count = (sql: string) => store.db.prepare<[], number>(sql).pluck().get()!;
  const rows = TIERS.map(
    (tier) => `${count(`SELECT count(*) FROM ${looseRows(store.db, tier)}`)} (${tier})`,
  );
  console.log(
    `read store: simulator backfill of ${READ_STORE.fillerItems} items × all cs2 markets × ${READ_STORE.days} days at a daily step (book snapshots), ` +
      `and the ${READ_STORE.denseItems} most popular of them at a 10-minute step with their sales, through normalise + writeBatch: ` +
      `${timing.observations} observations, ${count('SELECT count(*) FROM history_series')} series, rollup rows ${rows.join(' + ')}, ` +
      `built in ${((performance.now() - started) / 1000).toFixed(0)} s`,
  );
  return store;
}

/**
 * The packing pass on the read store: a first pass over every row (what a store converted from
 * loose rows goes through once), then the steady state (nothing new settled: one seek per
 * series and tier). The reads then run on the packed store.
 */
async function packAtScale(store: SqlitePriceStore): Promise<void> {
  for (const label of ['first pass, every row', 'next pass, nothing new settled']) {
    const started = performance.now();
    const { packed } = await compactHistory(store, END + 72 * DAY, KEEP_ALL);
    const ms = performance.now() - started;
    const rows = TIERS.map((tier) => `${packed[tier]} (${tier})`).join(' + ');
    console.log(
      `packing pass on the read store, ${label}: ${rows} buckets packed, ${ms.toFixed(0)} ms`,
    );
  }
}

/** The read latencies, measured in a child process that only opens the built store. */
function readInFreshProcess(path: string): void {
  const script = fileURLToPath(new URL('./history-reads-main.ts', import.meta.url));
  const result = spawnSync(process.execPath, [...process.execArgv, script, path, String(END)], {
    stdio: 'inherit',
  });
  if (result.status !== 0) throw new Error(`history reads exited with ${result.status}`);
}

/** The sizes part alone (`npm run bench -- history-sizes`). */
export async function benchHistorySizes(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'pricing-history-sizes-'));
  try {
    await benchSizes(dir, loadCatalogs());
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Bytes the 10-minute folds write, days derived against days stored by every fold. */
export async function benchHistoryFolds(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'pricing-history-folds-'));
  try {
    await benchFoldWrites(dir, loadCatalogs(), fxAt(END), END);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** `HISTORY_PARTS=ingest` or `reads` runs only that part; both by default. */
const part = (name: string) => (process.env.HISTORY_PARTS ?? name).split(',').includes(name);

export async function benchHistory(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'pricing-history-bench-'));
  try {
    const catalogs = loadCatalogs();
    if (part('ingest')) await benchIngest(dir, catalogs);
    if (!part('reads')) return;
    const store = await readStore(dir, catalogs);
    await packAtScale(store);
    await store.close();
    readInFreshProcess(join(dir, 'reads.db'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
