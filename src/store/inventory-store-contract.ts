/**
 * The InventoryStore contract: one node:test suite SQLite and PostgreSQL run unchanged.
 * `makeStore` returns a fresh, empty, not yet initialised store.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { InventoryItem, InventorySnapshot } from '../domain/inventory.ts';
import type { InventoryStore } from './inventory-store.ts';

const T0 = Date.parse('2026-11-01T00:00:00Z');
const OWNER = '76561198000000001';

const ITEM: InventoryItem = {
  assetId: '101',
  classId: '1',
  instanceId: '0',
  marketHashName: 'AK-47 | Redline (Field-Tested)',
  marketName: 'AK-47 | Redline (Field-Tested)',
  tradable: true,
  marketable: true,
  floatValue: 0.2517,
  stickers: [{ slot: 0, name: 'Crown (Foil)' }],
  amount: 1,
  canonicalItemId: 'cs2-redline-ft',
};

function snapshot(id: string, createdAt: number, overrides: Partial<InventorySnapshot> = {}) {
  const base: InventorySnapshot = {
    id,
    accountId: 'acct-1',
    targetSteamId: OWNER,
    appId: 730,
    contextId: 2,
    tradableOnly: false,
    maxInspections: 0,
    status: 'PENDING',
    createdAt,
    completedAt: null,
    itemCount: null,
    inspectedCount: null,
    unresolvedCount: null,
    error: null,
    items: null,
  };
  return { ...base, ...overrides };
}

export function inventoryStoreContract(label: string, makeStore: () => InventoryStore): void {
  const opened = async () => {
    const store = makeStore();
    await store.init();
    return store;
  };

  test(`${label}: a snapshot moves PENDING → FETCHING → COMPLETED and keeps its items`, async () => {
    const store = await opened();
    await store.create(snapshot('s1', T0));
    assert.equal((await store.get('s1'))?.status, 'PENDING');
    await store.update('s1', { status: 'FETCHING' });
    assert.equal((await store.get('s1'))?.status, 'FETCHING');
    await store.update('s1', {
      status: 'COMPLETED',
      completedAt: T0 + 500,
      itemCount: 1,
      unresolvedCount: 0,
      items: [ITEM],
    });
    assert.deepEqual(
      await store.get('s1'),
      snapshot('s1', T0, {
        status: 'COMPLETED',
        completedAt: T0 + 500,
        itemCount: 1,
        unresolvedCount: 0,
        items: [ITEM],
      }),
    );
    assert.equal(await store.get('missing'), null);
    await store.close();
  });

  test(`${label}: a failure keeps its sentence`, async () => {
    const store = await opened();
    await store.create(snapshot('f1', T0, { tradableOnly: true, maxInspections: 5 }));
    await store.update('f1', {
      status: 'FAILED',
      completedAt: T0 + 1,
      error: 'The inventory is private.',
    });
    const failed = await store.get('f1');
    assert.equal(failed?.error, 'The inventory is private.');
    assert.equal(failed?.tradableOnly, true);
    assert.equal(failed?.maxInspections, 5);
    assert.equal(failed?.items, null);
    await store.close();
  });

  test(`${label}: history is newest first, paged, without items; counts per account`, async () => {
    const store = await opened();
    for (let index = 0; index < 5; index++) {
      await store.create(snapshot(`h${index}`, T0 + index * 1000, { items: [ITEM] }));
    }
    await store.create(
      snapshot('other', T0, { targetSteamId: '76561198000000009', accountId: 'acct-2' }),
    );
    const page = await store.history(OWNER, 2, 1);
    assert.equal(page.total, 5);
    assert.deepEqual(
      page.snapshots.map((entry) => entry.id),
      ['h3', 'h2'],
    );
    assert.ok(page.snapshots.every((entry) => entry.items === null));
    assert.equal(await store.countSince('acct-1', T0 + 2000), 3);
    assert.equal(await store.countSince('acct-2', T0), 1);
    await store.close();
  });
}
