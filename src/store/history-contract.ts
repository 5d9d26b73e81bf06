/**
 * The HistoryStore contract: node:test cases every store holding history must pass, written
 * against the ports only (writes through PriceStore.writeBatch, reads through HistoryStore) so
 * SQLite and PostgreSQL run them unchanged. Expected rollups come from MemoryRollups, the pure
 * reference (src/pricing/rollup-memory.ts), plus a few values spelled out by hand.
 *
 * `makeStore` returns a fresh, empty store (init() not yet called) and a `cleanup`.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { DAY, HOUR, MINUTE } from '../domain/clock.ts';
import type { IngestBatch } from '../domain/quote.ts';
import { TIERS } from '../pricing/rollup-buckets.ts';
import { talliedMarkets } from '../pricing/rollups.ts';
import { T0 } from './contract-fixtures.ts';
import { dayCases } from './history-contract-days.ts';
import { hourCases } from './history-contract-hours.ts';
import { pageCases } from './history-contract-pages.ts';
import {
  ITEM,
  SERIES,
  activity,
  allRows,
  ask,
  bid,
  retentionCases,
  sale,
  withHistoryStore,
  type HistoryStoreFactory,
  referenceOf,
} from './history-contract-support.ts';

export type { HistoryStoreFactory } from './history-contract-support.ts';

function batch(parts: Partial<IngestBatch>): IngestBatch {
  return { sides: [], sales: [], listings: [], ...parts };
}

function roundTripCases(make: HistoryStoreFactory): void {
  test('a new store has no history', () =>
    withHistoryStore(make, async (store) => {
      assert.deepEqual(await store.historyMarkets('cs2', ITEM), []);
      for (const tier of TIERS) {
        assert.deepEqual(await store.readRollups(SERIES.aggregate, tier, 0, T0 + DAY), []);
        assert.deepEqual(await store.readSaleCounts(SERIES.aggregate, tier, 0, T0 + DAY), []);
      }
    }));

  test('every series and tier holds what the reference computes', () =>
    withHistoryStore(make, async (store) => {
      const batches = activity();
      for (const entry of batches) await store.writeBatch(entry);
      const expected = allRows(referenceOf(batches));
      assert.deepEqual(await allRows(store), await expected);
    }));

  test('the aggregate adds markets up; wallet-credit bids stay out of it', () =>
    withHistoryStore(make, async (store) => {
      for (const entry of activity()) await store.writeBatch(entry);
      const [first] = await store.readRollups(SERIES.aggregate, '10m', T0, T0 + 10 * MINUTE);
      assert.equal(first?.start, T0);
      assert.deepEqual(
        [first?.ask?.prices.n, first?.ask?.prices.min, first?.ask?.prices.max],
        [3, 1234, 1300],
      );
      assert.deepEqual(first?.bid && talliedMarkets(first.bid), ['csfloat']);
      assert.deepEqual([first?.sales?.n, first?.sales?.sum], [1, 1199]);
    }));

  test('reads are half-open on the bucket start and oldest first', () =>
    withHistoryStore(make, async (store) => {
      for (const entry of activity()) await store.writeBatch(entry);
      const rows = await store.readRollups(SERIES.skinport, '10m', T0 + 10 * MINUTE, T0 + DAY);
      assert.deepEqual(
        rows.map((row) => row.start),
        [T0 + 10 * MINUTE],
      );
      const hours = await store.readRollups(SERIES.aggregate, '1h', T0, T0 + 2 * HOUR);
      assert.deepEqual(
        hours.map((row) => row.start),
        [T0, T0 + HOUR],
      );
      assert.deepEqual(await store.readRollups(SERIES.aggregate, '1h', T0 + 1, T0 + HOUR), []);
    }));

  test('a read of some sections lists every bucket with the other sections null', () =>
    withHistoryStore(make, async (store) => {
      for (const entry of activity()) await store.writeBatch(entry);
      const all = await store.readRollups(SERIES.aggregate, '1h', T0, T0 + DAY);
      const sales = await store.readRollups(SERIES.aggregate, '1h', T0, T0 + DAY, ['sales']);
      assert.deepEqual(
        sales,
        all.map((row) => ({ ...row, ask: null, bid: null })),
      );
      const book = await store.readRollups(SERIES.aggregate, '1h', T0, T0 + DAY, ['ask', 'bid']);
      assert.deepEqual(
        book,
        all.map((row) => ({ ...row, sales: null })),
      );
    }));

  test('scanRollups, where implemented, visits exactly what readRollups returns', () =>
    withHistoryStore(make, async (store) => {
      for (const entry of activity()) await store.writeBatch(entry);
      const visited: unknown[] = [];
      const scan = store.scanRollups?.bind(store) ?? (async () => {});
      await scan(SERIES.aggregate, '10m', 0, T0 + DAY, ['ask', 'sales'], (row) => {
        visited.push(structuredClone(row));
      });
      const read = await store.readRollups(SERIES.aggregate, '10m', 0, T0 + DAY, ['ask', 'sales']);
      assert.deepEqual(visited, store.scanRollups ? read : []);
    }));

  test('units sold per bucket, buckets without sales absent', () =>
    withHistoryStore(make, async (store) => {
      for (const entry of activity()) await store.writeBatch(entry);
      assert.deepEqual(await store.readSaleCounts(SERIES.aggregate, '1h', T0, T0 + DAY), [
        { start: T0, units: 1 },
        { start: T0 + HOUR, units: 2 },
      ]);
      assert.deepEqual(await store.readSaleCounts(SERIES.aggregate, '1d', T0, T0 + DAY), [
        { start: T0, units: 3 },
      ]);
      assert.deepEqual(await store.readSaleCounts(SERIES.skinport, '1d', T0, T0 + DAY), []);
    }));

  test('markets with a series, in market order; games never mix', () =>
    withHistoryStore(make, async (store) => {
      for (const entry of activity()) await store.writeBatch(entry);
      assert.deepEqual(await store.historyMarkets('cs2', ITEM), [
        'steamcommunity',
        'skinport',
        'buff163',
        'csfloat',
      ]);
      assert.deepEqual(await store.historyMarkets('rust', ITEM), ['skinport']);
      const rust = await store.readRollups({ ...SERIES.skinport, game: 'rust' }, '1d', 0, T0 + DAY);
      assert.deepEqual(
        rust.map((row) => row.ask?.prices.min),
        [777],
      );
    }));
}

function countingCases(make: HistoryStoreFactory): void {
  test('a snapshot already counted changes nothing; a sale stored twice counts once', () =>
    withHistoryStore(make, async (store) => {
      const batches = activity();
      for (const entry of [...batches, ...batches]) await store.writeBatch(entry);
      const late = ask('skinport', 1, 5 * MINUTE - 1);
      await store.writeBatch(batch({ sides: [late] }));
      assert.deepEqual(await allRows(store), await allRows(referenceOf(batches)));
    }));

  test('live batches per market and one chronological import batch give the same rollups', () =>
    withHistoryStore(make, async (live) =>
      withHistoryStore(make, async (imported) => {
        const batches = activity();
        for (const entry of batches) await live.writeBatch(entry);
        const sides = batches.flatMap((entry) => entry.sides);
        const sales = batches.flatMap((entry) => entry.sales);
        sides.sort((a, b) => a.fetchedAt - b.fetchedAt);
        await imported.writeBatch(batch({ sides, sales }));
        assert.deepEqual(await allRows(imported), await allRows(live));
      }),
    ));

  test('past observations older than the stored side still enter the rollups', () =>
    withHistoryStore(make, async (store) => {
      const newer = ask('skinport', 1400, 2 * HOUR);
      const older = ask('skinport', 1000, 0);
      await store.writeBatch(batch({ sides: [newer] }));
      await store.writeBatch(batch({ sides: [older] }));
      assert.deepEqual(
        (await store.loadSides('cs2')).map((entry) => entry.levels[0]?.price),
        [1400],
      );
      const days = await store.readRollups(SERIES.skinport, '1d', T0, T0 + DAY);
      assert.deepEqual(
        [days[0]?.ask?.prices.n, days[0]?.ask?.prices.min, days[0]?.ask?.prices.max],
        [2, 1000, 1400],
      );
    }));

  test('a failed batch leaves no history behind and the next batch is recorded', () =>
    withHistoryStore(make, async (store) => {
      const broken = { ...sale('csfloat', 1199, 1, 0), market: null as never };
      const failing = batch({ sides: [ask('skinport', 1234, MINUTE)], sales: [broken] });
      await assert.rejects(store.writeBatch(failing));
      assert.deepEqual(await store.historyMarkets('cs2', ITEM), []);
      assert.deepEqual(await store.readRollups(SERIES.skinport, '10m', 0, T0 + DAY), []);
      const good = batch({ sides: [ask('skinport', 1234, MINUTE), bid('csfloat', 1100, MINUTE)] });
      await store.writeBatch(good);
      assert.deepEqual(await allRows(store), await allRows(referenceOf([good])));
    }));
}

/**
 * `pages`: the store implements packBefore, so the page cases apply too. `derivedHours`: the
 * store keeps no hour the 10-minute tier still holds (it derives it), so there is no such hour
 * to delete or pack.
 */
export function historyStoreContract(
  name: string,
  makeStore: HistoryStoreFactory,
  options: { pages?: boolean; derivedHours?: boolean } = {},
): void {
  const derivedHours = options.derivedHours === true;
  describe(`HistoryStore contract: ${name}`, () => {
    describe('round trip', () => roundTripCases(makeStore));
    describe('counting', () => countingCases(makeStore));
    describe('retention', () => retentionCases(makeStore, derivedHours));
    describe('hours across 10-minute retention', () => hourCases(makeStore));
    describe('days across packing and 10-minute retention', () => dayCases(makeStore));
    if (options.pages) describe('pages', () => pageCases(makeStore, derivedHours));
  });
}
