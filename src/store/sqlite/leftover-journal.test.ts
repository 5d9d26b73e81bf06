import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DAY, MINUTE } from '../../domain/clock.ts';
import { T0 } from '../contract-fixtures.ts';
import { TIERS } from '../../pricing/rollup-buckets.ts';
import { ask, bid, sale, SERIES } from '../history-contract-support.ts';
import { replayJournal } from './rollup-journal.ts';
import { rowFormatBlob } from './rollup-journal-support.ts';
import { createSqlitePriceStore, type SqlitePriceStore } from './sqlite-price-store.ts';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'leftover-journal-'));
after(() => fs.rmSync(root, { recursive: true, force: true }));

const journaled = (store: SqlitePriceStore) =>
  store.db.prepare('SELECT count(*) FROM rollup_journal').pluck().get() as number;

/** A store file holding a batch journaled by a store that never folded it (it "died"). */
async function leftBehind(): Promise<{ file: string; dead: SqlitePriceStore }> {
  const file = path.join(fs.mkdtempSync(path.join(root, 'dir-')), 'prices.db');
  const dead = createSqlitePriceStore({ path: file });
  await dead.init();
  await dead.writeBatch({
    sides: [ask('skinport', 1234, MINUTE)],
    sales: [sale('csfloat', 1150, 2, MINUTE)],
    listings: [],
  });
  return { file, dead };
}

describe('journal entries a dead process left behind', () => {
  test('a store opened with foldLeftoversOnOpen false leaves them; a writer folds them', async () => {
    const { file, dead } = await leftBehind();
    const reader = createSqlitePriceStore({ path: file, foldLeftoversOnOpen: false });
    await reader.init();
    assert.ok(journaled(reader) > 0, 'init did not fold');
    assert.equal((await reader.loadSides('cs2')).length, 1, 'latest state is there at once');

    const writer = createSqlitePriceStore({ path: file, foldLeftoversOnOpen: false });
    await writer.init();
    await writer.flushRollups();
    assert.equal(journaled(reader), 0, 'the writer folded them');
    const [row] = await reader.readRollups(SERIES.aggregate, '1h', 0, T0 + DAY);
    assert.equal(row?.ask?.prices.min, 1234);
    assert.equal(row?.sales?.n, 2);
    await Promise.all([writer.close(), reader.close()]);
    dead.db.close();
  });

  test('by default an inline store folds them before init resolves', async () => {
    const { file, dead } = await leftBehind();
    const reopened = createSqlitePriceStore({ path: file });
    await reopened.init();
    assert.equal(journaled(reopened), 0);
    await reopened.close();
    dead.db.close();
  });

  test('entries an earlier release journaled in the row format are folded after an upgrade', async () => {
    const stores: SqlitePriceStore[] = [];
    for (const format of ['columns', 'rows'] as const) {
      const file = path.join(fs.mkdtempSync(path.join(root, 'dir-')), 'prices.db');
      const dead = createSqlitePriceStore({ path: file, foldLeftoversOnOpen: false });
      await dead.init();
      for (let minute = 0; minute < 30; minute += 7) {
        await dead.writeBatch({
          sides: [
            ask('skinport', 1234 + minute * 3, minute * MINUTE),
            bid('skinport', 1100 - minute, minute * MINUTE),
            ask('csfloat', 1250 - minute * 2, minute * MINUTE + 5),
          ],
          sales: [sale('csfloat', 1150 + minute, 1 + (minute % 3), minute * MINUTE)],
          listings: [],
        });
      }
      const blobs = dead.db.prepare('SELECT id, entries FROM rollup_journal').raw().all();
      assert.equal(blobs.length, 5, 'nothing was folded');
      const rewrite = dead.db.prepare('UPDATE rollup_journal SET entries = ? WHERE id = ?');
      for (const [id, blob] of blobs as [number, Buffer][]) {
        if (format === 'rows')
          rewrite.run(
            rowFormatBlob((sink) => replayJournal(blob, sink)),
            id,
          );
      }
      dead.db.close();
      const upgraded = createSqlitePriceStore({ path: file });
      await upgraded.init();
      assert.equal(journaled(upgraded), 0);
      stores.push(upgraded);
    }
    for (const series of Object.values(SERIES)) {
      for (const tier of TIERS) {
        const [columns, rows] = await Promise.all(
          stores.map((store) => store.readRollups(series, tier, 0, T0 + DAY)),
        );
        assert.deepEqual(rows, columns);
        if (series === SERIES.aggregate) assert.ok(columns!.length > 0);
      }
    }
    await Promise.all(stores.map((store) => store.close()));
  });
});
