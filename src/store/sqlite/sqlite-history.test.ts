import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DAY, MINUTE } from '../../domain/clock.ts';
import { TIERS } from '../../pricing/rollup-buckets.ts';
import { T0 } from '../contract-fixtures.ts';
import { historyStoreContract } from '../history-contract.ts';
import { ask, bid, ITEM, sale, SERIES } from '../history-contract-support.ts';
import { createSqlitePriceStore } from './sqlite-price-store.ts';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'sqlite-history-'));
after(() => fs.rmSync(root, { recursive: true, force: true }));

historyStoreContract('sqlite file', async () => {
  const file = path.join(fs.mkdtempSync(path.join(root, 'db-')), 'prices.db');
  return {
    store: createSqlitePriceStore({ path: file }),
    cleanup: async () => fs.rmSync(path.dirname(file), { recursive: true, force: true }),
  };
});

historyStoreContract('sqlite :memory:', async () => ({
  store: createSqlitePriceStore({ path: ':memory:' }),
  cleanup: async () => {},
}));

function changes(store: ReturnType<typeof createSqlitePriceStore>): number {
  return store.db.prepare<[], { n: number }>('SELECT total_changes() AS n').get()!.n;
}

describe('sqlite history', () => {
  test('change-only: a snapshot already counted writes no rollup row', async () => {
    const store = createSqlitePriceStore({ path: ':memory:' });
    await store.init();
    const batch = {
      sides: [ask('skinport', 1234, MINUTE), bid('csfloat', 1100, MINUTE)],
      sales: [],
      listings: [],
    };
    const before = changes(store);
    await store.writeBatch(batch);
    assert.equal(
      changes(store) - before,
      2 + 1 + 3 + 3 * 3,
      'sides, first-write mark, 3 new series, 3 rows × 3 tiers',
    );
    const again = changes(store);
    await store.writeBatch(batch);
    assert.equal(changes(store) - again, 2, 'only the two side upserts');
    await store.close();
  });

  test('a batch failing inside the rollup writer leaves no series behind', async () => {
    const store = createSqlitePriceStore({ path: ':memory:' });
    await store.init();
    const negative = { ...sale('csfloat', -5, 1, MINUTE), itemId: 'other-item' };
    await assert.rejects(
      store.writeBatch({ sides: [ask('csfloat', 1000, 0)], sales: [negative], listings: [] }),
      /non-negative/,
    );
    assert.deepEqual(await store.historyMarkets('cs2', ITEM), []);
    await store.writeBatch({ sides: [ask('csfloat', 1000, 0)], sales: [], listings: [] });
    const rows = await store.readRollups(SERIES.csfloat, '1d', 0, T0 + DAY);
    assert.equal(rows[0]?.ask?.prices.min, 1000);
    const ids = store.db.prepare('SELECT id FROM history_series ORDER BY id').all();
    assert.deepEqual(ids, [{ id: 1 }, { id: 2 }]);
    await store.close();
  });

  test('range reads and retention deletes seek the primary key', async () => {
    const store = createSqlitePriceStore({ path: ':memory:' });
    await store.init();
    const plan = (sql: string) =>
      store.db
        .prepare<[], { detail: string }>(`EXPLAIN QUERY PLAN ${sql}`)
        .all()
        .map((row) => row.detail)
        .join('; ');
    for (const tier of TIERS) {
      const read = plan(
        `SELECT * FROM rollups_${tier} WHERE series = 1 AND bucket >= 0 AND bucket < 9 ORDER BY bucket`,
      );
      assert.match(read, /SEARCH .* USING PRIMARY KEY \(series=\? AND bucket>\? AND bucket<\?\)/);
      assert.doesNotMatch(read, /TEMP B-TREE/);
      assert.match(
        plan(`DELETE FROM rollups_${tier} WHERE series = 1 AND bucket < 9`),
        /USING PRIMARY KEY/,
      );
    }
    await store.close();
  });

  test('a one-observation bucket is a few bytes', async () => {
    const store = createSqlitePriceStore({ path: ':memory:' });
    await store.init();
    await store.writeBatch({ sides: [ask('skinport', 123_456, MINUTE)], sales: [], listings: [] });
    const row = store.db
      .prepare<[], { size: number }>('SELECT length(ask) AS size FROM rollups_10m LIMIT 1')
      .get();
    assert.ok(row && row.size <= 16, `${row?.size} bytes`);
    await store.close();
  });
});
