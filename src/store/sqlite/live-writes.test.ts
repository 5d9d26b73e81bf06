import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { MINUTE } from '../../domain/clock.ts';
import type { SideSnapshot } from '../../domain/quote.ts';
import { T0, listing, side } from '../contract-fixtures.ts';
import { createSqlitePriceStore } from './sqlite-price-store.ts';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'sqlite-live-writes-'));
after(() => fs.rmSync(root, { recursive: true, force: true }));

function market(fetchedAt: number, price = 1234): SideSnapshot[] {
  return Array.from({ length: 2000 }, (_, index) =>
    side({
      itemId: `item-${index}`,
      fetchedAt,
      levels: [{ price: price + index, quantity: 1, orders: null }],
      totalQuantity: 1,
    }),
  );
}

describe('SQLite latest-state writes', () => {
  test('a poll that finds the market unchanged adds nothing to the prices WAL', async () => {
    const file = path.join(fs.mkdtempSync(path.join(root, 'db-')), 'prices.db');
    const store = createSqlitePriceStore({ path: file, rollups: false });
    await store.init();
    const listings = [listing()];
    await store.writeBatch({ sides: market(T0), sales: [], listings });
    store.db.pragma('wal_checkpoint(TRUNCATE)');
    const wal = () => fs.statSync(`${file}-wal`).size;
    for (let poll = 1; poll <= 5; poll += 1) {
      const confirmed = listings.map((row) => ({ ...row, fetchedAt: T0 + poll * MINUTE }));
      const counts = await store.writeBatch({
        sides: market(T0 + poll * MINUTE),
        sales: [],
        listings: confirmed,
      });
      assert.deepEqual(counts, { sides: 0, sales: 0, listings: 0 });
    }
    assert.equal(wal(), 0, 'no page was written');
    const moved = market(T0 + 6 * MINUTE).map((row, index) =>
      index % 500 === 0 ? { ...row, totalQuantity: 2 } : row,
    );
    assert.equal((await store.writeBatch({ sides: moved, sales: [], listings: [] })).sides, 4);
    assert.ok(wal() > 0 && wal() < 16 * 4096, `${wal()} bytes for 4 changed sides`);
    await store.close();
  });

  test('a new prices file has 1 KiB pages, so a small commit writes a few KiB to the WAL', async () => {
    const file = path.join(fs.mkdtempSync(path.join(root, 'db-')), 'prices.db');
    const store = createSqlitePriceStore({ path: file, rollups: false });
    await store.init();
    assert.equal(store.db.pragma('page_size', { simple: true }), 1024);
    await store.writeBatch({ sides: market(T0), sales: [], listings: [] });
    store.db.pragma('wal_checkpoint(TRUNCATE)');
    const moved = market(T0 + MINUTE).map((row, index) =>
      index % 500 === 0 ? { ...row, totalQuantity: 2 } : row,
    );
    assert.equal((await store.writeBatch({ sides: moved, sales: [], listings: [] })).sides, 4);
    const wal = fs.statSync(`${file}-wal`).size;
    assert.ok(wal > 0 && wal <= 8 * 1024, `${wal} bytes for 4 changed sides`);
    await store.close();
  });

  test('a prices file of 4 KiB pages (earlier releases) is rebuilt with 1 KiB pages, its data kept', async () => {
    const file = path.join(fs.mkdtempSync(path.join(root, 'db-')), 'prices.db');
    const earlier = createSqlitePriceStore({ path: file, rollups: false });
    await earlier.init();
    await earlier.writeBatch({ sides: market(T0), sales: [], listings: [listing()] });
    await earlier.close();
    const four = new Database(file);
    four.pragma('journal_mode = DELETE');
    four.pragma('page_size = 4096');
    four.exec('VACUUM');
    assert.equal(four.pragma('page_size', { simple: true }), 4096);
    four.pragma('journal_mode = WAL');
    four.close();
    const store = createSqlitePriceStore({ path: file, rollups: false });
    await store.init();
    assert.equal(store.db.pragma('page_size', { simple: true }), 1024);
    assert.equal(store.db.pragma('journal_mode', { simple: true }), 'wal');
    assert.equal((await store.loadSides('cs2')).length, 2000);
    assert.equal((await store.loadListings('cs2')).length, 1);
    await store.close();
  });

  test('while another connection has the file open it stays as it is, converted by a later open', async () => {
    const file = path.join(fs.mkdtempSync(path.join(root, 'db-')), 'prices.db');
    const four = new Database(file);
    four.pragma('page_size = 4096');
    four.pragma('journal_mode = WAL');
    four.exec('CREATE TABLE held (x)');
    const open = new Database(file);
    open.prepare('SELECT * FROM held').all();
    const store = createSqlitePriceStore({ path: file, rollups: false });
    await store.init();
    assert.equal(store.db.pragma('page_size', { simple: true }), 4096);
    await store.writeBatch({ sides: market(T0), sales: [], listings: [] });
    await store.close();
    [four, open].forEach((db) => db.close());
    const later = createSqlitePriceStore({ path: file, rollups: false });
    await later.init();
    assert.equal(later.db.pragma('page_size', { simple: true }), 1024);
    assert.equal((await later.loadSides('cs2')).length, 2000);
    await later.close();
  });
});
