import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { manualClock } from '../../domain/clock.ts';
import { priceStoreContract } from '../contract.ts';
import { listing, sale, side, T0 } from '../contract-fixtures.ts';
import { openPrices } from './connection.ts';
import { appliedMigrations, migrate } from './migrate.ts';
import { prepareStatements } from './statements.ts';
import { SQLITE_MIGRATIONS } from './migrations.ts';
import { createSqlitePriceStore } from './sqlite-price-store.ts';
import { queryPlan } from './test-support.ts';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'sqlite-price-store-'));
after(() => fs.rmSync(root, { recursive: true, force: true }));

function tempDbPath(): string {
  return path.join(fs.mkdtempSync(path.join(root, 'db-')), 'prices.db');
}

priceStoreContract('sqlite file', async () => {
  const file = tempDbPath();
  return {
    store: createSqlitePriceStore({ path: file }),
    cleanup: async () => fs.rmSync(path.dirname(file), { recursive: true, force: true }),
  };
});

priceStoreContract('sqlite :memory:', async () => ({
  store: createSqlitePriceStore({ path: ':memory:' }),
  cleanup: async () => {},
}));

describe('sqlite price store', () => {
  test('opens in WAL mode with NORMAL sync, a busy timeout and foreign keys', async () => {
    const store = createSqlitePriceStore({ path: tempDbPath() });
    const pragma = (name: string) => store.db.pragma(name, { simple: true });
    assert.equal(pragma('journal_mode'), 'wal');
    assert.equal(pragma('synchronous'), 1);
    assert.equal(pragma('busy_timeout'), 5000);
    assert.equal(pragma('foreign_keys'), 1);
    await store.close();
  });

  test('records each migration once, stamped by the injected clock', async () => {
    const file = tempDbPath();
    const clock = manualClock('2026-11-01T00:00:00Z');
    const first = createSqlitePriceStore({ path: file, clock });
    await first.init();
    await first.init();
    await first.close();
    clock.advance(60_000);
    const second = createSqlitePriceStore({ path: file, clock });
    await second.init();
    const applied = appliedMigrations(second.db);
    assert.deepEqual(
      applied.map((row) => [row.version, row.appliedAt]),
      SQLITE_MIGRATIONS.map((step) => [step.version, Date.parse('2026-11-01T00:00:00Z')]),
    );
    await second.close();
  });

  test('refuses a database written by a newer build', async () => {
    const file = tempDbPath();
    const store = createSqlitePriceStore({ path: file });
    await store.init();
    store.db.prepare("INSERT INTO schema_migrations VALUES (99, 'future', 0)").run();
    await store.close();
    const reopened = createSqlitePriceStore({ path: file });
    await assert.rejects(reopened.init(), /schema version 99/);
    await reopened.close();
  });

  test('creates missing folders; data survives close and reopen; close checkpoints the WAL', async () => {
    const file = path.join(path.dirname(tempDbPath()), 'not', 'yet', 'there', 'prices.db');
    const store = createSqlitePriceStore({ path: file });
    await store.init();
    await store.writeBatch({ sides: [side()], sales: [sale()], listings: [listing()] });
    await store.close();
    await store.close();
    const walBytes = fs.existsSync(`${file}-wal`) ? fs.statSync(`${file}-wal`).size : 0;
    assert.equal(walBytes, 0);
    const reopened = createSqlitePriceStore({ path: file });
    await reopened.init();
    assert.deepEqual(await reopened.loadSides('cs2'), [side()]);
    assert.deepEqual(await reopened.loadSales('cs2', 0), [sale()]);
    assert.deepEqual(await reopened.loadListings('cs2'), [listing()]);
    assert.equal(await reopened.isEmpty(), false);
    await reopened.close();
  });

  test('methods reject until init() has run', async () => {
    const store = createSqlitePriceStore({ path: ':memory:' });
    await assert.rejects(store.loadSides('cs2'), /init\(\) first/);
    await assert.rejects(store.writeBatch({ sides: [side()], sales: [], listings: [] }));
    await store.close();
  });

  test('time-range reads use their indexes', async () => {
    const store = createSqlitePriceStore({ path: ':memory:' });
    await store.init();
    const plan = (sql: string) => queryPlan(store.db, sql);
    const sales = plan("SELECT * FROM sales WHERE game = 'cs2' AND sold_at >= 0 ORDER BY sold_at");
    assert.match(sales, /PRIMARY KEY \(game=\? AND sold_at>\?\)/);
    assert.doesNotMatch(sales, /TEMP B-TREE/);
    assert.match(
      plan('SELECT * FROM fetch_records WHERE started_at >= 0'),
      /fetch_records_by_start/,
    );
    assert.match(
      plan(
        "SELECT entries FROM live_log WHERE kind = 'listings' AND game = 'cs2' AND market = 'x' AND id > 0 ORDER BY id",
      ),
      /live_log_by_chunk/,
    );
    await store.close();
  });

  test('raw sales of a version 13 data dir (keyed item first) load the same keyed time first, still once each', async () => {
    const file = tempDbPath();
    const earlier = openPrices(file);
    migrate(earlier, SQLITE_MIGRATIONS.slice(0, 13), () => T0);
    const sold = [
      sale({ itemId: 'b', soldAt: T0 + 2 }),
      sale({ itemId: 'a', soldAt: T0 + 1 }),
      sale({ itemId: 'a', soldAt: T0 + 3, market: 'buff163', price: 900, quantity: 2 }),
    ];
    const insert = prepareStatements(earlier).insertSale;
    for (const s of sold) {
      insert.run([s.game, s.itemId, s.soldAt, s.market, s.price, s.quantity, s.ingestedAt, 'USD']);
    }
    earlier.close();
    const store = createSqlitePriceStore({ path: file });
    await store.init();
    const bySoldAt = [sold[1], sold[0], sold[2]];
    assert.deepEqual(await store.loadSales('cs2', 0), bySoldAt);
    const again = await store.writeBatch({
      sides: [],
      sales: [sold[0]!, sale({ itemId: 'c', soldAt: T0 + 4 })],
      listings: [],
    });
    assert.equal(again.sales, 1, 'the sale stored before is not stored again');
    assert.equal((await store.loadSales('cs2', T0 + 2)).length, 3);
    const indexes = store.db
      .prepare("SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'sales'")
      .pluck()
      .all();
    assert.deepEqual(indexes, [], 'the time index went with the item-first key');
    await store.close();
  });
});
