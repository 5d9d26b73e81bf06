import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { HOUR, MINUTE, SECOND, manualClock } from '../../domain/clock.ts';
import type { IngestBatch } from '../../domain/quote.ts';
import { TIERS } from '../../pricing/rollup-buckets.ts';
import { T0 } from '../contract-fixtures.ts';
import {
  SERIES,
  activity,
  allRows,
  ask,
  bid,
  referenceOf,
  sale,
  writeAll,
} from '../history-contract-support.ts';
import { encodeSales, encodeSide } from '../rollup-codec.ts';
import { createPool } from './driver.ts';
import { migrate } from './migrate.ts';
import { PRICE_LEDGER, PRICE_MIGRATIONS } from './migrations.ts';
import { createPostgresPriceStore, type PostgresPriceStore } from './postgres-price-store.ts';
import { journalEntries, journalRows, readJournalRow } from './rollup-journal.ts';
import {
  DATABASE_URL,
  adminQuery,
  dropSchema,
  needsPostgres,
  testSchemaName,
} from './test-support.ts';

const batch = (parts: Partial<IngestBatch>): IngestBatch => ({
  sides: [],
  sales: [],
  listings: [],
  ...parts,
});

describe('rollup journal body', () => {
  test('entries read back as journaled, split into bounded rows', () => {
    const ids = new Map([
      ['cs2\u0000' + SERIES.skinport.itemId + '\u0000skinport', 7],
      ['cs2\u0000' + SERIES.skinport.itemId + '\u0000', 3],
      ['cs2\u0000' + SERIES.skinport.itemId + '\u0000csfloat', 900_000],
    ]);
    const sides = [ask('skinport', 1234, MINUTE), bid('csfloat', 1190, 2 * MINUTE)];
    const entries = journalEntries(sides, [sale('csfloat', 1199, 3, 11 * MINUTE)], ids);
    assert.deepEqual(
      entries.map((entry) => [entry.kind, entry.own, entry.all, entry.size]),
      [
        ['ask', 7, 3, 17],
        ['bid', 900_000, 3, 2],
        ['sale', 900_000, 3, 3],
      ],
    );
    const [row, ...more] = journalRows(entries);
    assert.equal(more.length, 0);
    assert.equal(row!.closesAt, T0 + 20 * MINUTE, 'the end of the latest entry’s bucket');
    const read: unknown[] = [];
    readJournalRow(row!.baseAt, row!.body, (entry) => read.push(entry));
    assert.deepEqual(read, entries);
    const many = Array.from({ length: 45_000 }, () => entries[0]!);
    assert.deepEqual(
      journalRows(many).map((part) => part.entries),
      [20_000, 20_000, 5_000],
    );
  });
});

describe('PostgreSQL rollup journal and fold', needsPostgres, () => {
  const schemas: string[] = [];
  const stores: PostgresPriceStore[] = [];
  after(async () => {
    for (const store of stores) await store.close();
    for (const schema of schemas) await dropSchema(schema);
  });

  async function openStore(schema: string, clock = manualClock(T0 + HOUR)) {
    if (!schemas.includes(schema)) schemas.push(schema);
    const store = createPostgresPriceStore({ connectionString: DATABASE_URL, schema, clock });
    stores.push(store);
    await store.init();
    return store;
  }

  const journalLength = async (schema: string) =>
    Number(
      (await adminQuery<{ n: string }>('SELECT count(*) AS n FROM rollup_journal', [], schema))[0]!
        .n,
    );

  test('a store that only reads sees a bucket once it closed and a writer folded it', async () => {
    const schema = testSchemaName();
    const clock = manualClock(T0 + MINUTE);
    const writer = await openStore(schema, clock);
    const reader = await openStore(schema);
    const read = () => reader.readRollups(SERIES.skinport, '10m', 0, T0 + HOUR);
    await writer.writeBatch(batch({ sides: [ask('skinport', 1234, MINUTE)] }));
    assert.deepEqual(await read(), [], 'the open bucket is not folded');
    clock.set(T0 + 10 * MINUTE + SECOND);
    await writer.writeBatch(batch({ sides: [ask('skinport', 1250, 10 * MINUTE + SECOND)] }));
    const deadline = Date.now() + 10_000;
    while ((await read()).length === 0 && Date.now() < deadline) await sleep(50);
    assert.deepEqual(
      (await read()).map((row) => [row.start, row.ask?.prices.n]),
      [[T0, 1]],
    );
    assert.equal(await journalLength(schema), 1, 'the open bucket’s batch waits in the journal');
    await writer.flushRollups();
    assert.equal((await read()).length, 2);
    assert.equal(await journalLength(schema), 0);
  });

  test('a fold that fails leaves the journal whole; the next one folds it all', async () => {
    const schema = testSchemaName();
    const store = await openStore(schema);
    const batches = activity();
    await writeAll(store, batches);
    await adminQuery(
      'ALTER TABLE rollups_1d ADD CONSTRAINT refuse CHECK (false) NOT VALID',
      [],
      schema,
    );
    await assert.rejects(store.flushRollups(), /refuse/);
    assert.equal(await journalLength(schema), batches.length);
    await adminQuery('ALTER TABLE rollups_1d DROP CONSTRAINT refuse', [], schema);
    await store.flushRollups();
    assert.deepEqual(await allRows(store), await allRows(referenceOf(batches)));
  });

  test('batches commit while a fold holds the fold lock; whole-market batches at once', async () => {
    const schema = testSchemaName();
    const writers = [await openStore(schema), await openStore(schema), await openStore(schema)];
    const lock = createPool({ connectionString: DATABASE_URL, schema, poolSize: 1 });
    const holder = await lock.connect();
    try {
      await holder.query('BEGIN');
      await holder.query(
        `SELECT pg_advisory_xact_lock(hashtext(current_schema() || ':rollup-fold'))`,
      );
      const markets = ['skinport', 'csfloat', 'buff163'] as const;
      const items = 10_000;
      await Promise.all(
        writers.map((store, index) => {
          const sides = Array.from({ length: items }, (_, item) => ({
            ...ask(markets[index]!, 1000 + item, MINUTE),
            itemId: `item-${item}`,
          }));
          return store.writeBatch(batch({ sides }));
        }),
      );
      assert.equal(await journalLength(schema), 3 * Math.ceil(items / 20_000));
    } finally {
      await holder.query('ROLLBACK');
      holder.release();
      await lock.end();
    }
    await writers[0]!.flushRollups();
    const aggregate = { ...SERIES.aggregate, itemId: 'item-42' };
    const [day] = await writers[1]!.readRollups(aggregate, '1d', 0, T0 + HOUR);
    assert.equal(day?.ask?.prices.n, 3);
  });

  test('the next fold rewrites an open hour’s and day’s rows on their own pages', async () => {
    const schema = testSchemaName();
    const store = await openStore(schema);
    const items = 400;
    const poll = (offsetMs: number) =>
      batch({
        sides: Array.from({ length: items }, (_, item) => ({
          ...ask('skinport', 1000 + item, offsetMs),
          itemId: `item-${item}`,
        })),
      });
    const pages = async () =>
      Object.fromEntries(
        await Promise.all(
          (['1h', '1d'] as const).map(async (tier) => {
            const rows = await adminQuery<{ series: string; at: string }>(
              `SELECT series::text, ctid::text AS at FROM rollups_${tier} ORDER BY series`,
              [],
              schema,
            );
            const blocks = rows.map((row) => `${row.series}@${row.at.split(',')[0]!.slice(1)}`);
            return [tier, blocks] as const;
          }),
        ),
      );
    await store.writeBatch(poll(MINUTE));
    await store.flushRollups();
    const inserted = await pages();
    assert.equal(inserted['1h']!.length, 2 * items, 'a row per item and per aggregate');
    await store.writeBatch(poll(11 * MINUTE));
    await store.flushRollups();
    assert.deepEqual(
      await pages(),
      inserted,
      'every new version on its row’s page: a HOT update, no new key entry',
    );
    const [hour] = await store.readRollups(
      { ...SERIES.skinport, itemId: 'item-7' },
      '1h',
      0,
      T0 + HOUR,
    );
    assert.equal(hour?.ask?.prices.n, 2);
  });

  test('a schema of migration 8 with rollup rows migrates; new batches merge into its rows', async () => {
    const schema = testSchemaName();
    schemas.push(schema);
    const earlier = activity().slice(0, 4);
    const later = activity().slice(4);
    const pool = createPool({ connectionString: DATABASE_URL, schema });
    try {
      const before = PRICE_MIGRATIONS.filter((step) => step.version <= 8);
      await migrate(pool, { ledger: PRICE_LEDGER, migrations: before, schema, now: () => T0 });
      const reference = referenceOf(earlier);
      for (const series of Object.values(SERIES)) {
        const inserted = await pool.query<{ id: number }>(
          'INSERT INTO history_series (game, item_id, market) VALUES ($1, $2, $3) RETURNING id',
          [series.game, series.itemId, series.market ?? ''],
        );
        const id = inserted.rows[0]!.id;
        for (const tier of TIERS) {
          for (const row of reference.read(series, tier, 0, T0 + 2 * HOUR * 24)) {
            await pool.query(
              `INSERT INTO rollups_${tier} (series, start, ask, bid, sales, sale_units)
               VALUES ($1, $2, $3, $4, $5, $6)`,
              [
                id,
                row.start,
                row.ask && encodeSide('ask', row.ask, row.start),
                row.bid && encodeSide('bid', row.bid, row.start),
                row.sales && encodeSales(row.sales),
                row.sales?.n ?? null,
              ],
            );
          }
        }
      }
    } finally {
      await pool.end();
    }
    const store = await openStore(schema);
    const versions = await adminQuery<{ version: number }>(
      `SELECT version FROM ${PRICE_LEDGER} ORDER BY version`,
      [],
      schema,
    );
    assert.deepEqual(
      versions.map((row) => row.version),
      PRICE_MIGRATIONS.map((step) => step.version),
    );
    const read = async (source: Parameters<typeof allRows>[0]) =>
      Object.fromEntries(
        Object.entries(await allRows(source)).filter(([name]) => name.startsWith('cs2/')),
      );
    assert.deepEqual(await read(store), await read(referenceOf(earlier)));
    const again = earlier.map((entry) => ({ ...entry, sales: [] }));
    await writeAll(store, [...again, ...later]);
    assert.deepEqual(
      await read(store),
      await read(referenceOf([...earlier, ...later])),
      'the sides written before count once; the later batches merge into the stored rows',
    );
  });
});
