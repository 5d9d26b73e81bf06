/**
 * Daily reads over an open day derived from its 10-minute buckets against the same day stored
 * (as every fold stored it before issue 31), alternating in one run: 40 CS2 items × all
 * markets, 180 days of daily history packed, then the open day at a 5-minute step (144 loose
 * 10-minute buckets per series); a 181-day daily aggregate read of each item, 8 rounds per
 * pass. Run: `node --import tsx bench/history-day-reads.ts`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadCatalogs } from '../src/catalog/index.ts';
import { DAY, MINUTE, manualClock } from '../src/domain/clock.ts';
import { DEFAULT_FX } from '../src/ingest/fx.ts';
import { compactHistory } from '../src/store/history-compaction.ts';
import { prepareRollupStatements } from '../src/store/sqlite/rollup-statements.ts';
import { createSqlitePriceStore } from '../src/store/sqlite/sqlite-price-store.ts';
import { storeMergesOf } from '../src/store/sqlite/stored-merges.ts';
import { ingestSimulated, KEEP_ALL } from './history-data.ts';

const END = Date.parse('2026-11-20T00:00:00Z');
const dir = mkdtempSync(join(tmpdir(), 'day-reads-'));
const catalogs = loadCatalogs();
const clock = manualClock(END + DAY - 1);
const store = createSqlitePriceStore({ path: join(dir, 'r.db'), clock });
await store.init();
const run = { catalogs, fx: { ...DEFAULT_FX, asOf: END }, items: 40, store, bookOnly: true };
await ingestSimulated({ ...run, fromMs: END - 180 * DAY, toMs: END - DAY, stepMs: DAY });
await compactHistory(store, END, KEEP_ALL);
await ingestSimulated({
  ...run,
  fromMs: END + MINUTE,
  toMs: END + DAY - 2 * MINUTE,
  stepMs: 5 * MINUTE,
});
await store.flushRollups();
const items = store.db
  .prepare("SELECT game, item_id FROM history_series WHERE market = ''")
  .all() as { game: 'cs2'; item_id: string }[];
const measure = async (label: string) => {
  const times: number[] = [];
  for (let round = 0; round < 8; round += 1) {
    for (const item of items) {
      const started = performance.now();
      const rows = await store.readRollups(
        { game: item.game, itemId: item.item_id, market: null },
        '1d',
        END - 180 * DAY,
        END + DAY,
      );
      times.push(performance.now() - started);
      if (rows.length < 170) throw new Error(`${rows.length} rows`);
    }
  }
  times.sort((a, b) => a - b);
  const at = (q: number) => times[Math.floor(q * (times.length - 1))]!.toFixed(3);
  console.log(
    `${label}: 181-day daily aggregate read (${items.length} items × 8), p50 ${at(0.5)} ms, p95 ${at(0.95)} ms`,
  );
  return Number(at(0.5));
};
const statements = prepareRollupStatements(store.db);
const ids = store.db.prepare('SELECT id FROM history_series').pluck().all() as number[];
const results: Record<string, number[]> = { derived: [], stored: [] };
for (let pass = 0; pass < 3; pass += 1) {
  const days = `history.rollups_1d_${Math.floor(END / DAY / 64)}`;
  store.db.prepare(`DELETE FROM ${days} WHERE bucket = ?`).run(END / DAY);
  results.derived!.push(await measure('open day derived from its 144 loose 10-minute buckets'));
  store.db.transaction(() => {
    for (const id of ids)
      storeMergesOf(statements, id, END / (10 * MINUTE), END / (10 * MINUTE) + 144, ['1d']);
  })();
  results.stored!.push(await measure('open day stored (as every fold stored it before)'));
}
console.log(JSON.stringify(results));
await store.close();
rmSync(dir, { recursive: true, force: true });
