import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
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
});
