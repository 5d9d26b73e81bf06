import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { DAY, manualClock } from '../../domain/clock.ts';
import { T0, sale } from '../contract-fixtures.ts';
import {
  monthStart,
  monthsOf,
  nextMonthStart,
  partitionMonth,
  partitionName,
} from './partitions.ts';
import { createPool } from './driver.ts';
import { migrate } from './migrate.ts';
import {
  OPEN_ROLLUP_FILLFACTOR,
  PRICE_LEDGER,
  PRICE_MIGRATIONS,
  ROLLUP_FILLFACTOR,
} from './migrations.ts';
import { createPostgresPriceStore } from './postgres-price-store.ts';
import type { PostgresPriceStore } from './postgres-price-store.ts';
import {
  DATABASE_URL,
  adminQuery,
  dropSchema,
  needsPostgres,
  testSchemaName,
} from './test-support.ts';

const at = (iso: string) => Date.parse(iso);
const YEAR_10000 = at('+010000-01-01T00:00:00Z');

describe('monthly partition bounds', () => {
  test('a month runs from its first ms to the first ms of the next, in UTC', () => {
    assert.equal(monthStart(T0), T0);
    assert.equal(monthStart(T0 - 1), at('2026-10-01T00:00:00Z'));
    assert.equal(nextMonthStart(at('2026-12-01T00:00:00Z')), at('2027-01-01T00:00:00Z'));
    assert.equal(partitionName('sales', T0), 'sales_y2026m11');
    assert.equal(partitionMonth('sales', 'sales_y2026m11'), T0);
    assert.equal(partitionMonth('sales', 'sales_default'), null);
    assert.equal(partitionMonth('sales', 'fetch_records_y2026m11'), null);
    assert.equal(partitionMonth('sales', 'sales_y2026m13'), null);
  });

  test('times outside 1970-9999 or not safe integers get no partition', () => {
    for (const ms of [-1, YEAR_10000, Number.NaN, 1.5, Number.MAX_SAFE_INTEGER + 2]) {
      assert.equal(monthStart(ms), null, String(ms));
    }
    assert.deepEqual(monthsOf([T0 + 5, -1, T0, T0 - 1]), [at('2026-10-01T00:00:00Z'), T0]);
  });

  test('every time falls in the month its partition name stands for', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: YEAR_10000 - 1 }), (ms) => {
        const start = monthStart(ms);
        assert.ok(start !== null && start <= ms && ms < nextMonthStart(start));
        assert.equal(partitionMonth('sales', partitionName('sales', start)), start);
      }),
    );
  });
});

describe('PostgreSQL partitions', needsPostgres, () => {
  const schemas: string[] = [];
  const stores: PostgresPriceStore[] = [];
  after(async () => {
    for (const store of stores) await store.close();
    for (const schema of schemas) await dropSchema(schema);
  });

  async function openStore(schema: string): Promise<PostgresPriceStore> {
    if (!schemas.includes(schema)) schemas.push(schema);
    const clock = manualClock(T0);
    const store = createPostgresPriceStore({ connectionString: DATABASE_URL, schema, clock });
    stores.push(store);
    await store.init();
    return store;
  }

  const partitionsOf = async (schema: string, table: string) =>
    (
      await adminQuery<{ name: string }>(
        `SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
         WHERE i.inhparent = $1::regclass ORDER BY 1`,
        [table],
        schema,
      )
    ).map((row) => row.name);

  const rowsPerPartition = async (schema: string) =>
    Object.fromEntries(
      (
        await adminQuery<{ part: string; count: number }>(
          'SELECT tableoid::regclass::text AS part, count(*) AS count FROM sales GROUP BY 1',
          [],
          schema,
        )
      ).map((row) => [row.part, row.count]),
    );

  test('init creates this month and the next, beside DEFAULT', async () => {
    const schema = testSchemaName();
    await openStore(schema);
    const expected = (table: string) => [
      `${table}_default`,
      `${table}_y2026m11`,
      `${table}_y2026m12`,
    ];
    assert.deepEqual(await partitionsOf(schema, 'sales'), expected('sales'));
    assert.deepEqual(await partitionsOf(schema, 'fetch_records'), expected('fetch_records'));
  });

  test('a write creates the months its sales touch and rows land in them', async () => {
    const schema = testSchemaName();
    const store = await openStore(schema);
    const march = at('2027-03-15T12:00:00Z');
    const sales = [sale(), sale({ soldAt: march }), sale({ soldAt: march + 1 })];
    await store.writeBatch({ sides: [], sales, listings: [] });
    assert.deepEqual(await rowsPerPartition(schema), { sales_y2026m11: 1, sales_y2027m03: 2 });
    assert.deepEqual(await store.loadSales('cs2', 0), sales);
  });

  test('rows that fell into DEFAULT move into their month when it is created', async () => {
    const schema = testSchemaName();
    const store = await openStore(schema);
    const stray = sale({ soldAt: at('2030-01-05T00:00:00Z'), price: 1 });
    await adminQuery(
      `INSERT INTO sales VALUES ('cs2', $1, $2, 'csfloat', 1, 1, $3, 'USD')`,
      [stray.itemId, stray.soldAt, stray.ingestedAt],
      schema,
    );
    assert.deepEqual(await rowsPerPartition(schema), { sales_default: 1 });
    const later = sale({ soldAt: at('2030-01-20T00:00:00Z') });
    await store.writeBatch({ sides: [], sales: [later], listings: [] });
    assert.deepEqual(await rowsPerPartition(schema), { sales_y2030m01: 2 });
    assert.deepEqual(await store.loadSales('cs2', 0), [stray, later]);
  });

  test('prune drops whole expired months and deletes the rest row by row', async () => {
    const schema = testSchemaName();
    const store = await openStore(schema);
    const times = [at('2026-09-30T00:00:00Z'), at('2026-10-31T23:59:59Z'), T0, T0 + DAY];
    const sales = times.map((soldAt) => sale({ soldAt }));
    await store.writeBatch({ sides: [], sales, listings: [] });
    await store.prune({ fetchesBeforeMs: T0, salesBeforeMs: T0 + DAY });
    assert.deepEqual(await partitionsOf(schema, 'sales'), [
      'sales_default',
      'sales_y2026m11',
      'sales_y2026m12',
    ]);
    assert.deepEqual(await store.loadSales('cs2', 0), [sale({ soldAt: T0 + DAY })]);
  });

  test('a month dropped by another process still takes writes, through DEFAULT', async () => {
    const schema = testSchemaName();
    const writer = await openStore(schema);
    const pruner = await openStore(schema);
    const october = at('2026-10-10T00:00:00Z');
    await writer.writeBatch({ sides: [], sales: [sale({ soldAt: october })], listings: [] });
    await pruner.prune({ fetchesBeforeMs: 0, salesBeforeMs: T0 });
    const late = sale({ soldAt: october + 1 });
    await writer.writeBatch({ sides: [], sales: [late], listings: [] });
    assert.deepEqual(await rowsPerPartition(schema), { sales_default: 1 });
    assert.deepEqual(await pruner.loadSales('cs2', 0), [late]);
  });

  test('processes creating the same new month at once both succeed', async () => {
    const schema = testSchemaName();
    const [first, second] = [await openStore(schema), await openStore(schema)];
    const june = at('2028-06-01T00:00:00Z');
    const batchFor = (itemId: string) => ({
      sides: [],
      sales: Array.from({ length: 5 }, (_, i) => sale({ itemId, soldAt: june + i * DAY })),
      listings: [],
    });
    await Promise.all([first.writeBatch(batchFor('a')), second.writeBatch(batchFor('b'))]);
    assert.deepEqual(await rowsPerPartition(schema), { sales_y2028m06: 10 });
  });

  const fillfactors = async (schema: string, table: string) =>
    Object.fromEntries(
      (
        await adminQuery<{ name: string; options: string[] | null }>(
          `SELECT c.relname AS name, c.reloptions AS options FROM pg_inherits i
           JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = $1::regclass`,
          [table],
          schema,
        )
      ).map((row) => [row.name, row.options]),
    );

  test('rollup tables leave room for HOT rewrites (hours and days the most); a schema from before gets it too', async () => {
    const schema = testSchemaName();
    schemas.push(schema);
    const pool = createPool({ connectionString: DATABASE_URL, schema });
    const before = PRICE_MIGRATIONS.filter((step) => step.version <= 7);
    await migrate(pool, { ledger: PRICE_LEDGER, migrations: before, schema, now: () => T0 });
    await pool.query(
      `CREATE TABLE rollups_10m_y2026m11 PARTITION OF rollups_10m
       FOR VALUES FROM (${T0}) TO (${at('2026-12-01T00:00:00Z')})`,
    );
    await pool.end();
    await openStore(schema);
    const fillfactor = { rollups_10m: ROLLUP_FILLFACTOR, rollups_1h: OPEN_ROLLUP_FILLFACTOR };
    for (const [table, percent] of Object.entries(fillfactor)) {
      const wanted = [`fillfactor=${percent}`];
      const months = await fillfactors(schema, table);
      assert.deepEqual(Object.keys(months).sort(), [
        `${table}_default`,
        `${table}_y2026m11`,
        `${table}_y2026m12`,
      ]);
      for (const [name, options] of Object.entries(months)) {
        assert.deepEqual(options, wanted, name);
      }
    }
    const daily = await adminQuery<{ options: string[] | null }>(
      `SELECT reloptions AS options FROM pg_class WHERE oid = 'rollups_1d'::regclass`,
      [],
      schema,
    );
    assert.deepEqual(daily[0]?.options, [`fillfactor=${OPEN_ROLLUP_FILLFACTOR}`]);
    assert.deepEqual(Object.values(await fillfactors(schema, 'sales')), [null, null, null]);
  });
});
