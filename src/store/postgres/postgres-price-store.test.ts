import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { MINUTE, manualClock } from '../../domain/clock.ts';
import { priceStoreContract } from '../contract.ts';
import { T0, listing, sale, side } from '../contract-fixtures.ts';
import { PRICE_MIGRATIONS } from './migrations.ts';
import { createPostgresPriceStore } from './postgres-price-store.ts';
import type { PostgresPriceStore } from './postgres-price-store.ts';
import {
  DATABASE_URL,
  adminQuery,
  dropSchema,
  needsPostgres,
  testSchemaName,
} from './test-support.ts';

describe('PostgreSQL price store', needsPostgres, () => {
  priceStoreContract('postgres', async () => {
    const schema = testSchemaName();
    return {
      store: createPostgresPriceStore({ connectionString: DATABASE_URL, schema }),
      cleanup: () => dropSchema(schema),
    };
  });

  const schemas: string[] = [];
  const stores: PostgresPriceStore[] = [];
  after(async () => {
    for (const store of stores) await store.close();
    for (const schema of schemas) await dropSchema(schema);
  });

  async function openStore(schema = testSchemaName()): Promise<PostgresPriceStore> {
    if (!schemas.includes(schema)) schemas.push(schema);
    const clock = manualClock(T0);
    const store = createPostgresPriceStore({ connectionString: DATABASE_URL, schema, clock });
    stores.push(store);
    await store.init();
    return store;
  }

  test('an older side snapshot never overwrites a newer stored one', async () => {
    const store = await openStore();
    const newer = side({ fetchedAt: T0 + MINUTE, totalQuantity: 9 });
    await store.writeBatch({ sides: [newer], sales: [], listings: [] });
    await store.writeBatch({ sides: [side({ fetchedAt: T0 })], sales: [], listings: [] });
    assert.deepEqual(await store.loadSides('cs2'), [newer]);
  });

  test('an older listing never overwrites a newer stored one', async () => {
    const store = await openStore();
    const newer = listing({ fetchedAt: T0 + MINUTE, price: 1500 });
    await store.writeBatch({ sides: [], sales: [], listings: [newer] });
    await store.writeBatch({ sides: [], sales: [], listings: [listing({ price: 1 })] });
    assert.deepEqual(await store.loadListings('cs2'), [newer]);
  });

  test('a batch repeating a listing key keeps the later one', async () => {
    const store = await openStore();
    const later = listing({ price: 777 });
    await store.writeBatch({ sides: [], sales: [], listings: [listing(), later] });
    assert.deepEqual(await store.loadListings('cs2'), [later]);
  });

  test('text with quotes, backslashes, braces and commas round-trips exactly', async () => {
    const store = await openStore();
    const names = ['say "hi"', 'C:\\path\\', '{a,b}', 'NULL', ' padded ', 'Ümlaut ★ 漢字', ''];
    const sides = names.map((itemId) => side({ itemId }));
    const sales = names.map((itemId) => sale({ itemId }));
    const listings = names.map((itemId, i) =>
      listing({ listingId: `L-${i}`, itemId, stickers: names, phase: itemId }),
    );
    await store.writeBatch({ sides, sales, listings });
    const byItem = <T extends { itemId: string }>(values: T[]) =>
      [...values].sort((a, b) => (a.itemId < b.itemId ? -1 : 1));
    assert.deepEqual(byItem(await store.loadSides('cs2')), byItem(sides));
    assert.deepEqual(byItem(await store.loadSales('cs2', 0)), byItem(sales));
    assert.deepEqual(byItem(await store.loadListings('cs2')), byItem(listings));
  });

  test('ms epochs at the edge of the safe-integer range round-trip exactly', async () => {
    const store = await openStore();
    const edges = [Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER, 1, T0 + 999];
    const sales = edges.map((soldAt) => sale({ soldAt, ingestedAt: soldAt }));
    await store.writeBatch({ sides: [], sales, listings: [] });
    const loaded = await store.loadSales('cs2', -Number.MAX_SAFE_INTEGER);
    assert.deepEqual(
      loaded.map((entry) => entry.soldAt),
      [...edges].sort((a, b) => a - b),
    );
  });

  test('the database itself refuses fractional, negative and unsafe prices', async () => {
    const schema = testSchemaName();
    await openStore(schema);
    const insert = (price: string) =>
      adminQuery(
        `INSERT INTO sales VALUES ('cs2', 'x', $1, 'csfloat', $2::text::cents, 1, $1, 'USD')`,
        [T0, price],
        schema,
      );
    await assert.rejects(insert('11.5'), /invalid input syntax/);
    await assert.rejects(insert('-1'), /violates check constraint/);
    await assert.rejects(insert('9007199254740992'), /violates check constraint/);
    await insert('9007199254740991');
  });

  test('booting processes apply each migration once, concurrently', async () => {
    const schema = testSchemaName();
    schemas.push(schema);
    const clock = manualClock(T0);
    const racers = Array.from({ length: 4 }, () =>
      createPostgresPriceStore({ connectionString: DATABASE_URL, schema, clock, poolSize: 2 }),
    );
    stores.push(...racers);
    await Promise.all(racers.map((store) => store.init()));
    const ledger = await adminQuery<{ version: number }>(
      'SELECT version FROM schema_migrations',
      [],
      schema,
    );
    assert.deepEqual(
      ledger.map((row) => row.version),
      PRICE_MIGRATIONS.map((step) => step.version),
    );
  });

  test('using the store before init fails clearly', async () => {
    const store = createPostgresPriceStore({
      connectionString: DATABASE_URL,
      schema: testSchemaName(),
    });
    await assert.rejects(store.loadSides('cs2'), /init\(\)/);
    await store.close();
    await store.close();
  });
});
