import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { appendFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DAY, HOUR, manualClock, MINUTE } from '../../domain/clock.ts';
import type { IngestBatch } from '../../domain/quote.ts';
import { MemoryRollups } from '../../pricing/rollup-memory.ts';
import { T0 } from '../contract-fixtures.ts';
import { compactHistory } from '../history-compaction.ts';
import { ask, bid, sale, SERIES } from '../history-contract-support.ts';
import { frame, journalDirOf } from './journal-segments.ts';
import { looseRows, unfoldedBytes } from './test-support.ts';
import { FOLD_POLICY } from './store-rollups.ts';
import { createSqlitePriceStore } from './sqlite-price-store.ts';

const marks = (store: ReturnType<typeof createSqlitePriceStore>) =>
  store.db.prepare('SELECT count(*) FROM history.journal_marks').pluck().get() as number;
const freshFile = () => join(mkdtempSync(join(tmpdir(), 'store-rollups-')), 'prices.db');

describe('folding the rollup journal', () => {
  test('a journal longer than one fold transaction folds whole, each entry once', async () => {
    const file = freshFile();
    const store = createSqlitePriceStore({ path: file });
    await store.init();
    // Three batches of 10,000 items, 40,000 changed rows each (own and aggregate, 10m and 1d):
    // a transaction stops after the blob that reaches 50,000, so this takes two.
    const items = 30_000;
    for (let first = 0; first < items; first += 10_000) {
      const sides = Array.from({ length: 10_000 }, (_, index) => ({
        ...ask('skinport', 1000 + first + index, MINUTE),
        itemId: `item-${first + index}`,
      }));
      await store.writeBatch({ sides, sales: [], listings: [] });
    }
    await store.writeBatch({ sides: [ask('skinport', 1234, 2 * MINUTE)], sales: [], listings: [] });
    await store.flushRollups();
    const rows = store.db
      .prepare(`SELECT count(*) FROM ${looseRows(store.db, '10m')}`)
      .pluck()
      .get();
    assert.equal(rows, 2 * (items + 1));
    assert.equal(unfoldedBytes(store.db, file), 0);
    const key = { ...SERIES.aggregate, itemId: 'item-29999' };
    const [day] = await store.readRollups(key, '1d', 0, T0 + DAY);
    assert.equal(day?.ask?.prices.n, 1);
    assert.equal(day?.ask?.prices.min, 1000 + items - 1);
    await store.close();
  });

  test('a fold that fails is reported, keeps its entries and mark, and is retried', async () => {
    const clock = manualClock(T0);
    const errors: string[] = [];
    const file = freshFile();
    const store = createSqlitePriceStore({
      path: file,
      clock,
      onFoldError: (message) => errors.push(message),
    });
    await store.init();
    await store.writeBatch({ sides: [ask('skinport', 1234, MINUTE)], sales: [], listings: [] });
    // A blob no release writes, whole in its frame: the compact format's first byte, then
    // nothing readable.
    const [segment] = readdirSync(journalDirOf(file)).map((name) => join(journalDirOf(file), name));
    const badAt = statSync(segment!).size;
    appendFileSync(segment!, frame(Buffer.of(0x4a, 0xff)));
    await store.writeBatch({ sides: [], sales: [sale('csfloat', 1150, 2, MINUTE)], listings: [] });
    clock.advance(FOLD_POLICY.closeMs + FOLD_POLICY.graceMs);
    await store.writeBatch({
      sides: [],
      sales: [sale('csfloat', 1150, 1, 2 * MINUTE)],
      listings: [],
    });
    assert.equal(errors.length, 1, 'the due fold failed and said so');
    assert.equal(marks(store), 0, 'nothing folded');
    assert.equal(readdirSync(journalDirOf(file)).length, 2, 'both periods kept');
    await store.writeBatch({
      sides: [],
      sales: [sale('csfloat', 1150, 1, 3 * MINUTE)],
      listings: [],
    });
    assert.equal(errors.length, 1, 'a failed fold is retried in the next period, not at once');
    await assert.rejects(store.flushRollups(), /./, 'a flush fails the same way');

    const data = readFileSync(segment!);
    writeFileSync(segment!, Buffer.concat([data.subarray(0, badAt), data.subarray(badAt + 10)]));
    await store.flushRollups();
    const [row] = await store.readRollups(SERIES.aggregate, '1d', 0, T0 + DAY);
    assert.equal(row?.ask?.prices.n, 1);
    assert.equal(row?.sales?.n, 4);
    await store.close();
  });

  test('late data past the highest stored bucket of a packed day merges into its page', async () => {
    const store = createSqlitePriceStore({ path: ':memory:' });
    await store.init();
    const memory = new MemoryRollups();
    const packTens = {
      retention: { '10m': null, '1h': null, '1d': null },
      settleAfter: { '10m': 0, '1h': null, '1d': null },
    } as const;
    const writeAndPack = async (...batches: IngestBatch[]) => {
      for (const batch of batches) {
        await store.writeBatch(batch);
        memory.record(batch.sides, batch.sales);
      }
      await compactHistory(store, T0 + 30 * DAY, packTens);
    };
    await writeAndPack(
      { sides: [ask('skinport', 1200, MINUTE)], sales: [], listings: [] },
      { sides: [], sales: [sale('skinport', 1150, 2, HOUR)], listings: [] },
    );
    await writeAndPack(
      { sides: [bid('skinport', 1100, 5 * HOUR)], sales: [], listings: [] },
      { sides: [], sales: [sale('skinport', 1160, 1, 5 * HOUR)], listings: [] },
    );
    for (const series of [SERIES.aggregate, SERIES.skinport]) {
      for (const tier of ['10m', '1d'] as const) {
        const reference = memory.read(series, tier, 0, T0 + DAY);
        assert.deepEqual(await store.readRollups(series, tier, 0, T0 + DAY), reference, tier);
      }
    }
    await store.close();
  });

  test('a fold checkpoints the prices file, then writes the history file through a rollback journal', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'fold-checkpoint-'));
    const store = createSqlitePriceStore({ path: join(dir, 'prices.db') });
    await store.init();
    const inFile = (name: string) => statSync(join(dir, name)).size;
    const pragma = (name: string) => store.db.pragma(name, { simple: true }) as number;
    const inWal = (schema: string) =>
      pragma(`${schema}.page_count`) * pragma(`${schema}.page_size`);
    const sides = Array.from({ length: 2_000 }, (_, index) => ({
      ...ask('skinport', 1000 + index, MINUTE),
      itemId: `item-${index}`,
    }));
    await store.writeBatch({ sides, sales: [], listings: [] });
    assert.ok(inFile('prices.db') < inWal('main'), 'the batch waits in the WAL');
    await store.flushRollups();
    assert.equal(inFile('prices.history.db'), inWal('history'), 'the fold is in the file');
    assert.equal(existsSync(join(dir, 'prices.history.db-wal')), false, 'with no WAL');
    assert.equal(inFile('prices.db'), inWal('main'), 'and the batches before it');
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });
});
