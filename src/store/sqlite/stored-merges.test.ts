import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { DAY, HOUR, MINUTE } from '../../domain/clock.ts';
import type { MarketId } from '../../domain/markets.ts';
import type { IngestBatch } from '../../domain/quote.ts';
import { MemoryRollups } from '../../pricing/rollup-memory.ts';
import { T0 } from '../contract-fixtures.ts';
import { compactHistory } from '../history-compaction.ts';
import { ask, bid, sale, SERIES } from '../history-contract-support.ts';
import { looseRows } from './test-support.ts';
import { prepareRollupStatements } from './rollup-statements.ts';
import { createSqlitePriceStore } from './sqlite-price-store.ts';
import { storeMergesOf } from './stored-merges.ts';

const HOURS = 5;
const END = T0 + DAY;
const MARKETS: MarketId[] = ['skinport', 'csfloat', 'steamcommunity', 'buff163'];
const READ = [SERIES.aggregate, SERIES.skinport, SERIES.csfloat, SERIES.buff163];
const FIRST_TEN = T0 / (10 * MINUTE);
const TENS_PER_HOUR = 6;
/** Packs the stored hours only. */
const PACK_HOURS = {
  retention: { '10m': null, '1h': null, '1d': null },
  settleAfter: { '10m': null, '1h': 0, '1d': null },
} as const;

const event = fc.record({
  kind: fc.constantFrom('ask', 'bid', 'sale'),
  market: fc.constantFrom(...MARKETS),
  price: fc.integer({ min: 1, max: 500_000 }),
  units: fc.integer({ min: 1, max: 4 }),
  at: fc.integer({ min: 0, max: HOURS * 60 * MINUTE - 1 }),
});
type Event = typeof event extends fc.Arbitrary<infer T> ? T : never;

function batchOf(item: Event): IngestBatch {
  if (item.kind === 'sale') {
    return { sides: [], sales: [sale(item.market, item.price, item.units, item.at)], listings: [] };
  }
  const make = item.kind === 'ask' ? ask : bid;
  return { sides: [make(item.market, item.price, item.at)], sales: [], listings: [] };
}

async function hours(store: ReturnType<typeof createSqlitePriceStore>) {
  return Promise.all(READ.map((series) => store.readRollups(series, '1h', 0, END)));
}

/** Stores the hours in [first, end) (hour offsets from T0) of every series, keeping the 10m. */
function storeHours(store: ReturnType<typeof createSqlitePriceStore>, first: number, end: number) {
  const statements = prepareRollupStatements(store.db);
  const ids = store.db.prepare('SELECT id FROM history_series').pluck().all() as number[];
  store.db.transaction(() => {
    for (const id of ids) {
      const from = FIRST_TEN + first * TENS_PER_HOUR;
      storeMergesOf(statements, id, from, FIRST_TEN + end * TENS_PER_HOUR, ['1h']);
    }
  })();
}

test('stored hours next to their 10-minute buckets read as the derived merge, late data too', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.array(event, { minLength: 1, maxLength: 40 }),
      fc.array(event, { maxLength: 6 }),
      fc.nat(HOURS),
      fc.nat(HOURS),
      async (events, late, a, b) => {
        const store = createSqlitePriceStore({ path: ':memory:' });
        await store.init();
        try {
          const memory = new MemoryRollups();
          for (const batch of events.map(batchOf)) {
            await store.writeBatch(batch);
            memory.record(batch.sides, batch.sales);
          }
          const reference = READ.map((series) => memory.read(series, '1h', 0, END));
          assert.deepEqual(await hours(store), reference, 'derived');
          const [first, end] = [Math.min(a, b), Math.max(a, b)];
          storeHours(store, first, end);
          const sql = `SELECT count(*) FROM ${looseRows(store.db, '1h')}`;
          const inside = events.some(({ at }) => at >= first * HOUR && at < end * HOUR);
          const stored = store.db.prepare(sql).pluck().get() as number;
          assert.equal(stored > 0, inside, 'the hours with data are stored');
          assert.deepEqual(await hours(store), reference, 'stored and derived');
          await compactHistory(store, T0 + 30 * DAY, PACK_HOURS);
          storeHours(store, 0, HOURS);
          assert.deepEqual(await hours(store), reference, 'the rest stored next to a page');
          for (const batch of late.map(batchOf)) {
            await store.writeBatch(batch);
            memory.record(batch.sides, batch.sales);
          }
          const after = READ.map((series) => memory.read(series, '1h', 0, END));
          assert.deepEqual(await hours(store), after, 'late data');
        } finally {
          await store.close();
        }
      },
    ),
    { numRuns: 25 },
  );
});

/** Packs the 10-minute buckets only. */
const PACK_TENS = {
  retention: { '10m': null, '1h': null, '1d': null },
  settleAfter: { '10m': 0, '1h': null, '1d': null },
} as const;

test('hours of packed days read again from the day cache equal the merge, until late data repacks the day', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.array(event, { minLength: 1, maxLength: 40 }),
      fc.array(event, { minLength: 1, maxLength: 6 }),
      async (events, late) => {
        const store = createSqlitePriceStore({ path: ':memory:' });
        await store.init();
        try {
          const memory = new MemoryRollups();
          const write = async (batches: Event[]) => {
            for (const batch of batches.map(batchOf)) {
              await store.writeBatch(batch);
              memory.record(batch.sides, batch.sales);
            }
            await compactHistory(store, T0 + 30 * DAY, PACK_TENS);
            return READ.map((series) => memory.read(series, '1h', 0, END));
          };
          const scanned = async () => {
            const rows: string[][] = [];
            for (const series of READ) {
              const seen: string[] = [];
              const visit = (row: object) => void seen.push(JSON.stringify(row));
              await store.scanRollups(series, '1h', 0, END, ['ask', 'bid', 'sales'], visit);
              rows.push(seen);
            }
            return rows;
          };
          const reference = await write(events);
          const first = await hours(store);
          assert.deepEqual(first, reference, 'derived');
          for (const row of first.flat()) row.sales = null;
          assert.deepEqual(await hours(store), reference, 'cached, unchanged by the caller');
          const asJson = reference.map((rows) => rows.map((row) => JSON.stringify(row)));
          assert.deepEqual(await scanned(), asJson, 'scanned from the cache');
          const after = await write(late);
          assert.deepEqual(await hours(store), after, 'late data');
          assert.deepEqual(
            await scanned(),
            after.map((rows) => rows.map((row) => JSON.stringify(row))),
          );
        } finally {
          await store.close();
        }
      },
    ),
    { numRuns: 25 },
  );
});
