import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { MINUTE } from '../../domain/clock.ts';
import { historyStoreContract } from '../history-contract.ts';
import { ask, bid, ITEM, SERIES } from '../history-contract-support.ts';
import { createPostgresPriceStore } from './postgres-price-store.ts';
import {
  DATABASE_URL,
  adminQuery,
  dropSchema,
  needsPostgres,
  testSchemaName,
} from './test-support.ts';

function freshStore(schema = testSchemaName()) {
  return {
    store: createPostgresPriceStore({ connectionString: DATABASE_URL, schema, poolSize: 3 }),
    cleanup: () => dropSchema(schema),
  };
}

describe('PostgreSQL history', needsPostgres, () => {
  historyStoreContract('postgres', async () => freshStore());

  test('a snapshot already counted writes no rollup row', async () => {
    const schema = testSchemaName();
    const { store, cleanup } = freshStore(schema);
    try {
      await store.init();
      const batch = { sides: [ask('skinport', 1234, MINUTE)], sales: [], listings: [] };
      await store.writeBatch(batch);
      await store.flushRollups();
      const versions = () =>
        adminQuery<{ v: string }>(
          `SELECT string_agg(xmin::text, ',' ORDER BY series, start) AS v FROM (
             SELECT xmin, series, start FROM rollups_10m UNION ALL
             SELECT xmin, series, start FROM rollups_1h UNION ALL
             SELECT xmin, series, start FROM rollups_1d) AS every_row`,
          [],
          schema,
        );
      const before = await versions();
      assert.match(before[0]?.v ?? '', /^\d+,\d+,\d+,\d+,\d+,\d+$/, 'six rows stored');
      await store.writeBatch(batch);
      await store.flushRollups();
      assert.deepEqual(await versions(), before, 'no rollup row was rewritten');
      const rows = await store.readRollups(SERIES.skinport, '10m', 0, Number.MAX_SAFE_INTEGER);
      assert.equal(rows[0]?.ask?.prices.n, 1);
    } finally {
      await store.close();
      await cleanup();
    }
  });

  test('concurrent batches from two processes on one aggregate lose no observation', async () => {
    const schema = testSchemaName();
    const first = freshStore(schema);
    const second = freshStore(schema);
    try {
      await first.store.init();
      await second.store.init();
      const ingest = async (store: typeof first.store, market: 'skinport' | 'csfloat') => {
        for (let index = 0; index < 6; index += 1) {
          const sides = [ask(market, 1000 + index, index * 1000)];
          if (market === 'csfloat') sides.push(bid(market, 900 + index, index * 1000));
          await store.writeBatch({ sides, sales: [], listings: [] });
        }
      };
      await Promise.all([ingest(first.store, 'skinport'), ingest(second.store, 'csfloat')]);
      const [hour] = await first.store.readRollups(
        SERIES.aggregate,
        '1h',
        0,
        Number.MAX_SAFE_INTEGER,
      );
      assert.equal(hour?.ask?.prices.n, 12);
      assert.equal(hour?.bid?.prices.n, 6);
      assert.deepEqual(await second.store.historyMarkets('cs2', ITEM), ['skinport', 'csfloat']);
    } finally {
      await first.store.close();
      await second.store.close();
      await first.cleanup();
    }
  });

  test('10-minute and hourly rollups live in monthly partitions', async () => {
    const schema = testSchemaName();
    const { store, cleanup } = freshStore(schema);
    try {
      await store.init();
      await store.writeBatch({ sides: [ask('skinport', 1234, MINUTE)], sales: [], listings: [] });
      await store.flushRollups();
      const rows = await adminQuery<{ name: string; n: number }>(
        `SELECT tableoid::regclass::text AS name, count(*)::bigint AS n FROM rollups_10m
         GROUP BY 1`,
        [],
        schema,
      );
      assert.equal(rows.length, 1);
      assert.match(rows[0]!.name, /^rollups_10m_y\d{4}m\d{2}$/);
    } finally {
      await store.close();
      await cleanup();
    }
  });
});
