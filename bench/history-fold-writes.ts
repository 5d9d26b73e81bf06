/**
 * Bytes the 10-minute folds write, days derived (issue 31) against days stored by every fold
 * (the layout before it), in the same run: one store with two weeks of daily history is copied
 * twice; in the second, the open day's daily row of every series is stored after the first fold
 * of the day, as a data dir written before leaves it (a stored day keeps being folded into, so
 * that store folds as the code before did). Then a simulated hour of fetches at a 2-minute
 * step go into each on a manual clock, every fold run at its 10-minute boundary and measured
 * alone (`/proc/self/io` write_bytes and wchar of this process), and the packing pass that
 * closes the day (which stores the day in the first store) is measured as well.
 */
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import type { loadCatalogs } from '../src/catalog/index.ts';
import { DAY, HOUR, manualClock, MINUTE } from '../src/domain/clock.ts';
import type { FxTable } from '../src/ingest/fx.ts';
import { compactHistory } from '../src/store/history-compaction.ts';
import { historyPathOf } from '../src/store/sqlite/history-file.ts';
import { prepareRollupStatements } from '../src/store/sqlite/rollup-statements.ts';
import { createSqlitePriceStore } from '../src/store/sqlite/sqlite-price-store.ts';
import { storeMergesOf } from '../src/store/sqlite/stored-merges.ts';
import { ingestSimulated, KEEP_ALL } from './history-data.ts';
import { selfIo } from './harness.ts';

const TEN = 10 * MINUTE;
const ITEMS = 1_000;
const PRIOR_DAYS = 14;

export async function benchFoldWrites(
  dir: string,
  catalogs: ReturnType<typeof loadCatalogs>,
  fx: FxTable,
  day: number,
): Promise<void> {
  const run = { catalogs, fx, items: ITEMS };
  const base = join(dir, 'folds-base.db');
  const clock = manualClock(day);
  const seed = createSqlitePriceStore({ path: base, clock });
  await seed.init();
  await ingestSimulated({
    ...run,
    store: seed,
    fromMs: day - PRIOR_DAYS * DAY,
    toMs: day - DAY,
    stepMs: DAY,
    bookOnly: true,
  });
  await compactHistory(seed, day, KEEP_ALL);
  await seed.close();
  const results: { folds: number; wchar: number; pack: number; count: number }[] = [];
  for (const storedDays of [false, true]) {
    const path = join(dir, `folds-${storedDays}.db`);
    copyFileSync(base, path);
    copyFileSync(historyPathOf(base), historyPathOf(path));
    clock.set(day);
    const store = createSqlitePriceStore({ path, clock });
    await store.init();
    const result = { folds: 0, wchar: 0, pack: 0, count: 0 };
    let bucket = Math.floor(day / TEN);
    const beforeStep = async (atMs: number) => {
      if (Math.floor(atMs / TEN) > bucket) {
        bucket = Math.floor(atMs / TEN);
        clock.set(bucket * TEN);
        const before = selfIo();
        await store.flushRollups();
        const after = selfIo();
        if (bucket > Math.floor(day / TEN) + 1) {
          result.folds += after.written - before.written;
          result.wchar += after.wchar - before.wchar;
          result.count += 1;
        } else if (storedDays) storeOpenDays(store.db, day);
      }
      clock.set(atMs);
    };
    const window = { fromMs: day + MINUTE, toMs: day + HOUR + MINUTE, stepMs: 2 * MINUTE };
    await ingestSimulated({ ...run, store, ...window, beforeStep });
    await beforeStep(day + HOUR + TEN);
    clock.set(day + DAY + HOUR);
    const before = selfIo().written;
    await compactHistory(store, clock.now(), KEEP_ALL);
    result.pack = selfIo().written - before;
    await store.close();
    results.push(result);
  }
  const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;
  const [derived, stored] = results as [(typeof results)[0], (typeof results)[0]];
  for (const [name, result] of [
    ['days stored by every fold (before)', stored],
    ['days derived, stored at packing', derived],
  ] as const) {
    const perFold = result.folds / result.count;
    console.log(
      `fold writes, ${ITEMS} items × all cs2 markets, ${name}: ${result.count} 10-minute folds wrote ${mb(result.folds)} (write_bytes; wchar ${mb(result.wchar)}), ${mb(perFold)} a fold; the packing pass that closes the day ${mb(result.pack)}; a day (144 folds + that pass) ${mb(perFold * 144 + result.pack)}`,
    );
  }
  const day144 = (result: (typeof results)[0]) => (result.folds / result.count) * 144 + result.pack;
  console.log(
    `fold writes ratio, days derived vs stored by every fold: folds ${(derived.folds / stored.folds).toFixed(2)} (wchar ${(derived.wchar / stored.wchar).toFixed(2)}), a day with its packing pass ${(day144(derived) / day144(stored)).toFixed(2)}`,
  );
}

/** Stores today's daily row of every series, as the folds before issue 31 left it. */
function storeOpenDays(db: Parameters<typeof prepareRollupStatements>[0], day: number): void {
  const statements = prepareRollupStatements(db);
  const ids = db.prepare('SELECT id FROM history_series').pluck().all() as number[];
  const first = day / TEN;
  db.transaction(() => {
    statements.lockHistory();
    for (const id of ids) storeMergesOf(statements, id, first, first + 144, ['1d']);
  })();
}
