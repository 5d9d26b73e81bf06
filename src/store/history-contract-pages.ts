/**
 * HistoryStore contract cases for compact storage (packBefore), registered for stores that
 * implement it with periods of at most a UTC day of 10-minute buckets and a week of hours:
 * packing changes no read (lastAt included), late data for a packed period merges, retention
 * cuts a page, and a re-sent snapshot still counts once.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DAY, HOUR, MINUTE } from '../domain/clock.ts';
import type { IngestBatch } from '../domain/quote.ts';
import { TIERS, TIER_MS } from '../pricing/rollup-buckets.ts';
import { T0 } from './contract-fixtures.ts';
import { compactHistory } from './history-compaction.ts';
import {
  SERIES,
  allRows,
  ask,
  bid,
  sale,
  PACK_ALL,
  referenceOf,
  seededInts,
  withHistoryStore,
  writeAll,
  type HistoryStoreFactory,
} from './history-contract-support.ts';
import type { HistoryStore, SeriesKey } from './history-store.ts';

const BUCKETS = 36;
const NOW = T0 + 30 * DAY;

/** Six quiet hours: the same quotes and one same-priced sale in every 10-minute bucket. */
function quietHours(lastAtOffset: (bucket: number) => number = () => MINUTE): IngestBatch[] {
  const batches: IngestBatch[] = [];
  for (let bucket = 0; bucket < BUCKETS; bucket += 1) {
    const at = bucket * 10 * MINUTE + lastAtOffset(bucket);
    batches.push({
      sides: [ask('skinport', 1000, at), bid('csfloat', 900, at)],
      sales: [sale('csfloat', 950, 1, at)],
      listings: [],
    });
  }
  return batches;
}

/**
 * Six busy hours: in every 10-minute bucket several markets reprice a few times each, over
 * cheap (exact bins) and dear prices, with multi-unit sales (pages in their column form).
 */
function movingHours(): IngestBatch[] {
  const next = seededInts(7);
  const batches: IngestBatch[] = [];
  for (let bucket = 0; bucket < BUCKETS; bucket += 1) {
    for (let fetch = 0; fetch < 3; fetch += 1) {
      const at = bucket * 10 * MINUTE + (fetch + 1) * 2 * MINUTE + next(1000);
      const dear = 200_000 + next(60_000);
      batches.push({
        sides: [
          ask('skinport', 150 + next(200), at),
          ask('csfloat', dear, at),
          bid('csfloat', dear - next(5_000), at),
          bid('steamcommunity', 100 + next(50), at),
        ],
        sales: fetch === 1 ? [sale('csfloat', dear + next(900), 1 + next(3), at)] : [],
        listings: [],
      });
    }
  }
  return batches;
}

const QUIET_SERIES: SeriesKey[] = [SERIES.aggregate, SERIES.skinport, SERIES.csfloat];

/** Reads over ranges that start and end inside periods, and the sale counts. */
async function partialReads(store: HistoryStore) {
  const out: Record<string, unknown> = {};
  for (const series of QUIET_SERIES) {
    for (const tier of TIERS) {
      const from = T0 + 7 * TIER_MS[tier] - 1;
      const to = T0 + 23 * TIER_MS[tier] + 1;
      const name = `${series.market ?? '*'}/${tier}`;
      out[`${name}/rows`] = await store.readRollups(series, tier, from, to);
      out[`${name}/units`] = await store.readSaleCounts(series, tier, from, to);
      const visited: number[] = [];
      await store.scanRollups?.(series, tier, from, to, ['ask'], (row) => visited.push(row.start));
      out[`${name}/scan`] = visited;
    }
  }
  return out;
}

/** `derivedHours`: the store keeps no hour its 10-minute tier holds, so packs none. */
export function pageCases(make: HistoryStoreFactory, derivedHours = false): void {
  const storedHours = derivedHours ? 0 : 3 * 6;
  test('packing settled periods changes no read', () =>
    withHistoryStore(make, async (store) => {
      await writeAll(store, quietHours());
      const rows = await allRows(store);
      const partial = await partialReads(store);
      const { packed } = await compactHistory(store, NOW, PACK_ALL);
      assert.equal(packed['10m'], 3 * BUCKETS, 'three series');
      assert.equal(packed['1h'], storedHours);
      assert.deepEqual(await allRows(store), rows);
      assert.deepEqual(await partialReads(store), partial);
      const again = await compactHistory(store, NOW, PACK_ALL);
      assert.deepEqual(again.packed, { '10m': 0, '1h': 0, '1d': 0 });
    }));

  test('packing periods of moving prices changes no read and matches the reference', () =>
    withHistoryStore(make, async (store) => {
      await writeAll(store, movingHours());
      const rows = await allRows(store);
      const partial = await partialReads(store);
      assert.deepEqual(rows, await allRows(referenceOf(movingHours())));
      await compactHistory(store, NOW, PACK_ALL);
      assert.deepEqual(await allRows(store), rows);
      assert.deepEqual(await partialReads(store), partial);
    }));

  test('only periods ended by the cutoff are packed', () =>
    withHistoryStore(make, async (store) => {
      await writeAll(store, quietHours());
      const only10m = { ...PACK_ALL, settleAfter: { '10m': 0, '1h': null, '1d': null } };
      const early = await compactHistory(store, T0 + DAY - 1, only10m);
      assert.equal(early.packed['10m'], 0, 'the day has not ended');
      const { packed } = await compactHistory(store, T0 + DAY, only10m);
      assert.equal(packed['10m'], 3 * BUCKETS);
      assert.deepEqual(await allRows(store), await allRows(referenceOf(quietHours())));
    }));

  test('late data for packed periods merges; every read matches the reference', () =>
    withHistoryStore(make, async (store) => {
      const batches = quietHours();
      await writeAll(store, batches);
      await compactHistory(store, NOW, PACK_ALL);
      const late: IngestBatch[] = [0, 17, 18, BUCKETS - 1].map((bucket) => ({
        sides: [ask('skinport', 1100 + bucket, bucket * 10 * MINUTE + 5 * MINUTE)],
        sales: [sale('csfloat', 990, 2, bucket * 10 * MINUTE + 6 * MINUTE)],
        listings: [],
      }));
      await writeAll(store, late);
      const expected = referenceOf([...batches, ...late]);
      assert.deepEqual(await allRows(store), await allRows(expected));
      await compactHistory(store, NOW, PACK_ALL);
      assert.deepEqual(await allRows(store), await allRows(expected), 'and after packing again');
    }));

  test('a period late data reopened is packed again by the next pass', () =>
    withHistoryStore(make, async (store) => {
      const batches = quietHours();
      const gap = 10;
      await writeAll(store, [...batches.slice(0, gap), ...batches.slice(gap + 1)]);
      await compactHistory(store, NOW, PACK_ALL);
      await writeAll(store, [batches[gap]!]);
      const { packed } = await compactHistory(store, NOW, PACK_ALL);
      assert.deepEqual(
        packed,
        { '10m': 3 * BUCKETS, '1h': storedHours, '1d': 0 },
        'the whole period',
      );
      assert.deepEqual(await allRows(store), await allRows(referenceOf(batches)));
    }));

  test('retention hides the expired buckets of a page, then deletes the page', () =>
    withHistoryStore(make, async (store) => {
      await writeAll(store, quietHours());
      await compactHistory(store, NOW, PACK_ALL);
      const cutoff = T0 + 2 * HOUR + 20 * MINUTE;
      const expire = () =>
        compactHistory(store, cutoff + 90 * DAY, {
          ...PACK_ALL,
          retention: { '10m': 90 * DAY, '1h': null, '1d': null },
        });
      await expire();
      const expected = referenceOf(quietHours());
      for (const series of QUIET_SERIES) {
        const kept = await store.readRollups(series, '10m', 0, NOW);
        assert.deepEqual(kept, expected.read(series, '10m', cutoff, NOW));
        const units = await store.readSaleCounts(series, '10m', 0, NOW);
        assert.equal(units.length, series.market === 'skinport' ? 0 : BUCKETS - 14);
      }
      const all = await compactHistory(store, T0 + DAY + 90 * DAY, {
        ...PACK_ALL,
        retention: { '10m': 90 * DAY, '1h': null, '1d': null },
      });
      assert.equal(all.expired['10m'], 3 * BUCKETS, 'the whole period has expired');
      for (const series of QUIET_SERIES) {
        assert.deepEqual(await store.readRollups(series, '10m', 0, NOW), []);
      }
      const again = await compactHistory(store, T0 + DAY + 90 * DAY, {
        ...PACK_ALL,
        retention: { '10m': 90 * DAY, '1h': null, '1d': null },
      });
      assert.equal(again.expired['10m'], 0);
    }));

  test('packing keeps every lastAt; re-sent snapshots still count once', () =>
    withHistoryStore(make, async (store) => {
      const offsets = (bucket: number) => MINUTE + (bucket % 4) * 30_000;
      const batches = quietHours(offsets);
      await writeAll(store, batches);
      const before = await store.readRollups(SERIES.skinport, '10m', 0, NOW);
      await compactHistory(store, NOW, PACK_ALL);
      assert.deepEqual(await store.readRollups(SERIES.skinport, '10m', 0, NOW), before);
      await writeAll(store, batches);
      assert.deepEqual(await store.readRollups(SERIES.skinport, '10m', 0, NOW), before);
      assert.deepEqual(
        await store.readRollups(SERIES.aggregate, '1h', 0, NOW),
        referenceOf(batches).read(SERIES.aggregate, '1h', 0, NOW),
      );
    }));
}
