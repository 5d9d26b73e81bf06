/**
 * HistoryStore contract cases for change-only storage (collapseRunsBefore), registered for
 * stores that implement it: joining runs of equal buckets changes no read, late data splits a
 * run, retention cuts one, and a re-sent snapshot still counts once.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DAY, HOUR, MINUTE } from '../domain/clock.ts';
import type { IngestBatch } from '../domain/quote.ts';
import { TIERS, TIER_MS } from '../pricing/rollup-buckets.ts';
import { MemoryRollups } from '../pricing/rollup-memory.ts';
import type { RollupRow } from '../pricing/rollups.ts';
import { T0 } from './contract-fixtures.ts';
import { compactHistory } from './history-compaction.ts';
import {
  SERIES,
  allRows,
  ask,
  bid,
  sale,
  withHistoryStore,
  type HistoryStoreFactory,
} from './history-contract-support.ts';
import type { HistoryStore, SeriesKey } from './history-store.ts';
import type { PriceStore } from './price-store.ts';

const BUCKETS = 36;
const NOW = T0 + 30 * DAY;
/** Joins every bucket ended by NOW; keeps everything. */
const JOIN_ALL = {
  retention: { '10m': null, '1h': null, '1d': null },
  settleAfter: { '10m': 0, '1h': 0, '1d': 0 },
  rowsPerStep: 7,
} as const;

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

function referenceOf(batches: readonly IngestBatch[]): MemoryRollups {
  const memory = new MemoryRollups();
  for (const entry of batches) memory.record(entry.sides, entry.sales);
  return memory;
}

async function writeAll(store: PriceStore, batches: readonly IngestBatch[]) {
  for (const entry of batches) await store.writeBatch(entry);
}

const QUIET_SERIES: SeriesKey[] = [SERIES.aggregate, SERIES.skinport, SERIES.csfloat];

/** Reads over ranges that start and end inside runs, and the sale counts. */
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

function withLastAt(rows: RollupRow[], lastAt: (row: RollupRow) => number): RollupRow[] {
  return rows.map((row) => ({
    ...row,
    ask: row.ask && { ...row.ask, lastAt: lastAt(row) },
  }));
}

export function runCases(make: HistoryStoreFactory): void {
  test('joining runs of equal settled buckets changes no read', () =>
    withHistoryStore(make, async (store) => {
      await writeAll(store, quietHours());
      const rows = await allRows(store);
      const partial = await partialReads(store);
      const { joined } = await compactHistory(store, NOW, JOIN_ALL);
      assert.equal(joined['10m'], 3 * (BUCKETS - 1), 'three series, one row each');
      assert.equal(joined['1h'], 3 * 5);
      assert.deepEqual(await allRows(store), rows);
      assert.deepEqual(await partialReads(store), partial);
      const again = await compactHistory(store, NOW, JOIN_ALL);
      assert.deepEqual(again.joined, { '10m': 0, '1h': 0, '1d': 0 });
    }));

  test('only buckets settled by the cutoff join a run', () =>
    withHistoryStore(make, async (store) => {
      await writeAll(store, quietHours());
      const settledBy = T0 + 10 * 10 * MINUTE;
      const { joined } = await compactHistory(store, settledBy, {
        ...JOIN_ALL,
        settleAfter: { '10m': 0, '1h': null, '1d': null },
      });
      assert.equal(joined['10m'], 3 * 9, 'the first ten buckets of each series');
      assert.deepEqual(await allRows(store), await allRows(referenceOf(quietHours())));
    }));

  test('late data for buckets inside a run splits it; every read matches the reference', () =>
    withHistoryStore(make, async (store) => {
      const batches = quietHours();
      await writeAll(store, batches);
      await compactHistory(store, NOW, JOIN_ALL);
      const late: IngestBatch[] = [0, 17, 18, BUCKETS - 1].map((bucket) => ({
        sides: [ask('skinport', 1100 + bucket, bucket * 10 * MINUTE + 5 * MINUTE)],
        sales: [sale('csfloat', 990, 2, bucket * 10 * MINUTE + 6 * MINUTE)],
        listings: [],
      }));
      await writeAll(store, late);
      const expected = referenceOf([...batches, ...late]);
      assert.deepEqual(await allRows(store), await allRows(expected));
      await compactHistory(store, NOW, JOIN_ALL);
      assert.deepEqual(await allRows(store), await allRows(expected), 'and after joining again');
    }));

  test('late data below the settled buckets is looked at again by the next pass', () =>
    withHistoryStore(make, async (store) => {
      const batches = quietHours();
      const gap = 10;
      await writeAll(store, [...batches.slice(0, gap), ...batches.slice(gap + 1)]);
      await compactHistory(store, NOW, JOIN_ALL);
      await writeAll(store, [batches[gap]!]);
      const { joined } = await compactHistory(store, NOW, JOIN_ALL);
      assert.deepEqual(joined, { '10m': 3 * 2, '1h': 3 * 2, '1d': 0 }, 'the gap and what follows');
      assert.deepEqual(await allRows(store), await allRows(referenceOf(batches)));
    }));

  test('retention cuts a run that reaches past the cutoff', () =>
    withHistoryStore(make, async (store) => {
      await writeAll(store, quietHours());
      await compactHistory(store, NOW, JOIN_ALL);
      const cutoff = T0 + 2 * HOUR + 20 * MINUTE;
      await compactHistory(store, cutoff + 90 * DAY, {
        ...JOIN_ALL,
        retention: { '10m': 90 * DAY, '1h': null, '1d': null },
      });
      const expected = referenceOf(quietHours());
      for (const series of QUIET_SERIES) {
        const kept = await store.readRollups(series, '10m', 0, NOW);
        assert.deepEqual(kept, expected.read(series, '10m', cutoff, NOW));
        const units = await store.readSaleCounts(series, '10m', 0, NOW);
        assert.equal(units.length, series.market === 'skinport' ? 0 : BUCKETS - 14);
      }
    }));

  test('a run keeps its latest lastAt; re-sent snapshots still count once', () =>
    withHistoryStore(make, async (store) => {
      const offsets = (bucket: number) => MINUTE + (bucket % 4) * 30_000;
      const batches = quietHours(offsets);
      await writeAll(store, batches);
      const before = await store.readRollups(SERIES.skinport, '10m', 0, NOW);
      await compactHistory(store, NOW, JOIN_ALL);
      const latest = (row: RollupRow) => row.start + MINUTE + 3 * 30_000;
      const after = await store.readRollups(SERIES.skinport, '10m', 0, NOW);
      assert.deepEqual(after, withLastAt(before, latest));
      await writeAll(store, batches);
      assert.deepEqual(await store.readRollups(SERIES.skinport, '10m', 0, NOW), after);
      assert.deepEqual(
        await store.readRollups(SERIES.aggregate, '1h', 0, NOW),
        referenceOf(batches).read(SERIES.aggregate, '1h', 0, NOW),
      );
    }));
}
