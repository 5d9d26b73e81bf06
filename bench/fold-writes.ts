/**
 * fold-writes: bytes the SQLite history writes (`wchar` of /proc/self/io: every byte passed to
 * write/pwrite, WAL frames and checkpoints alike) for the folds of closed 10-minute buckets and for
 * packing the settled day, at realistic scale: 100,000 series (20,000 items × 4 markets plus their
 * aggregates; FOLD_WRITES_ITEMS=65600 for the full catalogs' 328,000), a day already holding 5
 * hours of 10-minute rows, then 6 buckets ingested and folded one by one (and the longest read
 * another connection made meanwhile), then the day packed. The same code runs three times in one
 * process: as it is (loose rows in a table per day, keyed time first, dropped once packed); with
 * each page's rows deleted as it is stored (a trigger), as packing did while loose rows shared one
 * table; and with the day's table keyed (series, bucket), as every layout before issue 31's
 * time-first rows kept them. First, the folds alone of buckets journaled as the real server
 * journals them: each market polled 3 times a bucket, in batches of 2,500 items.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { manualClock, MINUTE } from '../src/domain/clock.ts';
import type { MarketId } from '../src/domain/markets.ts';
import type { SideSnapshot } from '../src/domain/quote.ts';
import { compactHistory } from '../src/store/history-compaction.ts';
import { createSqlitePriceStore } from '../src/store/sqlite/sqlite-price-store.ts';
import { ratio } from './harness.ts';
import { KEEP_ALL } from './history-data.ts';

const ITEMS = Number(process.env.FOLD_WRITES_ITEMS ?? 20_000);
const MARKETS: MarketId[] = ['skinport', 'csfloat', 'buff163', 'steamcommunity'];
const WARM_BUCKETS = 30;
const MEASURED_BUCKETS = 4;
const TEN = 10 * MINUTE;
/** 20:00 UTC: the day's buckets before it are copies of its rows. */
const FIRST = Date.parse('2026-11-19T20:00:00Z');

const wchar = () => Number(/wchar:\s+(\d+)/.exec(readFileSync('/proc/self/io', 'utf8'))?.[1]);
const mb = (bytes: number) => `${(bytes / 1024 ** 2).toFixed(1)} MB`;

function fetchOf(market: MarketId, at: number, round: number): SideSnapshot[] {
  return Array.from({ length: ITEMS }, (_, item) => ({
    game: 'cs2',
    itemId: `item-${item}`,
    market,
    side: 'ask',
    levels: [{ price: 1000 + ((item * 7 + round * 13) % 500), quantity: 1, orders: null }],
    listingCount: 1 + (item % 9),
    totalQuantity: 1,
    fetchedAt: at,
    ingestedAt: at,
    sourceUpdatedAt: null,
    sourceTimeKind: null,
    originalCurrency: 'USD',
  }));
}

type Layout = 'table per day' | 'rows deleted when packed' | '(series, bucket)';
const DAY_TABLE = `history.rollups_10m_${Math.floor(FIRST / TEN / 144)}`;
const DAY_BUCKETS = Array.from(
  { length: 144 },
  (_, at) => Math.floor(FIRST / TEN / 144) * 144 + at,
);
const LAYOUTS: Record<Layout, string> = {
  'table per day': '',
  'rows deleted when packed': `CREATE TEMP TRIGGER rows_packed AFTER INSERT ON history.pages_10m
    BEGIN DELETE FROM ${DAY_TABLE} WHERE bucket IN (${DAY_BUCKETS.join(', ')})
      AND series = new.series; END;`,
  '(series, bucket)': `CREATE TABLE ${DAY_TABLE} (bucket INTEGER NOT NULL,
    series INTEGER NOT NULL, ask BLOB, bid BLOB, sales BLOB, PRIMARY KEY (series, bucket))
    STRICT, WITHOUT ROWID;`,
};

/** How a bucket is ingested: `polls` fetches of each market, each in batches of `batch` items. */
interface Polling {
  polls: number;
  batch: number;
}
const ONE_FETCH: Polling = { polls: 1, batch: ITEMS };
/** As the real server journals a bucket: each market polled 3 times, in batches of 2,500. */
const INTERLEAVED: Polling = { polls: 3, batch: 2500 };

/**
 * Reads the history file on a connection of its own on another thread, a read every
 * millisecond, as the HTTP thread does; `stop` resolves the longest a read took (a fold's
 * commit holds the file's lock).
 */
function historyReader(historyPath: string) {
  const shared = new Float64Array(new SharedArrayBuffer(16));
  const worker = new Worker(
    `const { workerData: { path, shared } } = require('node:worker_threads');
    const db = new (require('better-sqlite3'))(path);
    db.pragma('busy_timeout = 5000');
    const read = db.prepare('SELECT journal_id FROM fold_mark');
    const pause = new Int32Array(new SharedArrayBuffer(4));
    while (shared[0] === 0) {
      const started = performance.now();
      read.get();
      shared[1] = Math.max(shared[1], performance.now() - started);
      Atomics.wait(pause, 0, 0, 1);
    }
    db.close();`,
    { eval: true, workerData: { path: historyPath, shared } },
  );
  const exited = new Promise((resolve) => worker.once('exit', resolve));
  return async () => {
    shared[0] = 1;
    await exited;
    return shared[1]!;
  };
}

async function run(layout: Layout, polling = ONE_FETCH) {
  const dir = mkdtempSync(join(tmpdir(), 'fold-writes-'));
  const clock = manualClock(FIRST);
  const store = createSqlitePriceStore({ path: join(dir, 'prices.db'), clock });
  await store.init();
  store.db.exec(LAYOUTS[layout]);
  const checkpoint = () => store.db.pragma('history.wal_checkpoint(TRUNCATE)');
  const foldBucket = async (index: number) => {
    const at = FIRST + index * TEN + MINUTE;
    clock.set(at);
    for (let poll = 0; poll < polling.polls; poll += 1) {
      for (let from = 0; from < ITEMS; from += polling.batch) {
        for (const market of MARKETS) {
          const sides = fetchOf(market, at + poll * MINUTE, index * 3 + poll);
          await store.writeBatch({
            sides: sides.slice(from, from + polling.batch),
            sales: [],
            listings: [],
          });
        }
      }
    }
    const before = wchar();
    const started = performance.now();
    await store.flushRollups();
    return { bytes: wchar() - before, ms: performance.now() - started };
  };
  await foldBucket(0);
  const first = Math.floor(FIRST / TEN);
  for (let back = WARM_BUCKETS; back >= 1; back -= 1) {
    store.db.exec(`INSERT INTO ${DAY_TABLE} (series, bucket, ask, bid, sales)
      SELECT series, bucket - ${back}, ask, bid, sales FROM ${DAY_TABLE} WHERE bucket = ${first}`);
  }
  checkpoint();
  let folded = 0;
  let foldMs = 0;
  const stopReader = historyReader(join(dir, 'prices.history.db'));
  for (let index = 1; index <= MEASURED_BUCKETS; index += 1) {
    const fold = await foldBucket(index);
    folded += fold.bytes;
    foldMs += fold.ms;
  }
  const readWait = `longest read on another connection ${(await stopReader()).toFixed(1)} ms`;
  let before = wchar();
  checkpoint();
  folded += wchar() - before;
  if (polling !== ONE_FETCH) {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
    console.log(
      `fold-writes, ${layout}, each market polled ${polling.polls} times a bucket in batches of ${polling.batch}: ` +
        `${mb(folded / MEASURED_BUCKETS)} written per fold (${(foldMs / MEASURED_BUCKETS).toFixed(0)} ms, ${readWait})`,
    );
    return { folded: folded / MEASURED_BUCKETS, packing: 0 };
  }
  clock.set(FIRST + 5 * 60 * MINUTE);
  before = wchar();
  const started = performance.now();
  const { packed } = await compactHistory(store, clock.now(), KEEP_ALL);
  checkpoint();
  const packing = { bytes: wchar() - before, ms: performance.now() - started };
  const series = store.db.prepare('SELECT count(*) FROM history_series').pluck().get() as number;
  await store.close();
  rmSync(dir, { recursive: true, force: true });
  console.log(
    `fold-writes, ${layout}: ${series} series, ${MEASURED_BUCKETS} closed buckets folded after ${WARM_BUCKETS} of the day: ` +
      `${mb(folded / MEASURED_BUCKETS)} written per fold (${(foldMs / MEASURED_BUCKETS).toFixed(0)} ms, ${readWait}); ` +
      `packing the day (${packed['10m']} rows): ${mb(packing.bytes)} (${(packing.ms / 1000).toFixed(1)} s)`,
  );
  return { folded: folded / MEASURED_BUCKETS, packing: packing.bytes };
}

export async function benchFoldWrites(): Promise<void> {
  await run('table per day', INTERLEAVED);
  const perDay = await run('table per day');
  const deleted = await run('rows deleted when packed');
  console.log(
    `fold-writes ratio, a table per day vs rows deleted when packed (one table): folds ${ratio(perDay.folded, deleted.folded)}, ` +
      `packing ${ratio(perDay.packing, deleted.packing)}`,
  );
  const seriesFirst = await run('(series, bucket)');
  console.log(
    `fold-writes ratio, a table per day vs keyed (series, bucket): folds ${ratio(perDay.folded, seriesFirst.folded)}, ` +
      `packing ${ratio(perDay.packing, seriesFirst.packing)}`,
  );
}
