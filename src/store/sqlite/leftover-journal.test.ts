import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DAY, MINUTE } from '../../domain/clock.ts';
import { T0 } from '../contract-fixtures.ts';
import { ask, sale, SERIES } from '../history-contract-support.ts';
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
});
