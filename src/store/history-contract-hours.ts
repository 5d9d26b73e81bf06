/**
 * HistoryStore contract cases for hours across 10-minute retention: every read of the hourly
 * tier answers the same before and after retention removed the hour's 10-minute buckets (a cut
 * inside an hour, small steps, loose or packed buckets), and late data for an hour whose
 * 10-minute buckets expired still lands in the hour.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DAY, HOUR, MINUTE } from '../domain/clock.ts';
import type { IngestBatch } from '../domain/quote.ts';
import type { RollupRow } from '../pricing/rollups.ts';
import { T0 } from './contract-fixtures.ts';
import { compactHistory } from './history-compaction.ts';
import {
  SERIES,
  ask,
  bid,
  sale,
  PACK_ALL,
  referenceOf,
  seededInts,
  withHistoryStore,
  writeAll,
  type HistoryStoreFactory,
  type RollupSource,
} from './history-contract-support.ts';
import type { HistoryStore } from './history-store.ts';

const HOURS = 8;
const END = T0 + 400 * DAY;
const READ_SERIES = [SERIES.aggregate, SERIES.skinport, SERIES.csfloat, SERIES.steamcommunity];

/** Two fetches in most 10-minute buckets of HOURS hours, a quiet hour, sales now and then. */
function busyHours(): IngestBatch[] {
  const next = seededInts(11);
  const batches: IngestBatch[] = [];
  for (let bucket = 0; bucket < HOURS * 6; bucket += 1) {
    if (bucket >= 18 && bucket < 24) continue;
    for (let fetch = 0; fetch < 2; fetch += 1) {
      const at = bucket * 10 * MINUTE + (fetch + 1) * 3 * MINUTE + next(1000);
      const price = 1000 + next(400);
      batches.push({
        sides: [
          ask('skinport', price, at),
          ask('csfloat', 150_000 + next(80_000), at),
          bid('steamcommunity', price - next(100), at),
        ],
        sales: bucket % 4 === fetch ? [sale('csfloat', price + next(50), 1 + next(3), at)] : [],
        listings: [],
      });
    }
  }
  return batches;
}

/** Late data: into an hour that has buckets, and into one that had none. */
const LATE: IngestBatch[] = [
  { sides: [ask('skinport', 1999, HOUR + 7 * MINUTE)], sales: [], listings: [] },
  {
    sides: [ask('skinport', 1500, 3 * HOUR + 4 * MINUTE), bid('steamcommunity', 1400, 3 * HOUR)],
    sales: [sale('csfloat', 1450, 2, 3 * HOUR + 5 * MINUTE)],
    listings: [],
  },
];

/** Every kind of hourly read, whole and partial ranges. */
async function hourReads(store: HistoryStore) {
  const out: Record<string, unknown> = {};
  for (const series of READ_SERIES) {
    const name = series.market ?? '*';
    out[`${name}/all`] = await store.readRollups(series, '1h', 0, END);
    out[`${name}/part`] = await store.readRollups(series, '1h', T0 + HOUR - 1, T0 + 5 * HOUR + 1);
    out[`${name}/sales`] = await store.readRollups(series, '1h', 0, END, ['sales']);
    out[`${name}/units`] = await store.readSaleCounts(series, '1h', 0, END);
    const scanned: RollupRow[] = [];
    const keep = (row: RollupRow) => void scanned.push(structuredClone(row));
    await store.scanRollups?.(series, '1h', T0, END, ['ask', 'bid'], keep, ['bid']);
    out[`${name}/scan`] = scanned;
  }
  return out;
}

/** The hours of the read series, from a store or the reference. */
async function hourRows(source: RollupSource): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  for (const series of READ_SERIES) {
    out[series.market ?? '*'] =
      'readRollups' in source
        ? await source.readRollups(series, '1h', 0, END)
        : source.read(series, '1h', 0, END);
  }
  return out;
}

/** Expires the 10-minute buckets ending by `cutoff`, a few rows per step; keeps other tiers. */
const expireTens = (store: HistoryStore, cutoff: number) =>
  compactHistory(store, cutoff + 90 * DAY, {
    retention: { '10m': 90 * DAY, '1h': null, '1d': null },
    settleAfter: { '10m': null, '1h': null, '1d': null },
    rowsPerStep: 5,
  });

const packAll = (store: HistoryStore) => compactHistory(store, T0 + 30 * DAY, PACK_ALL);

async function tensFrom(store: HistoryStore): Promise<number> {
  const rows = await store.readRollups(SERIES.skinport, '10m', 0, END);
  return rows[0]?.start ?? END;
}

export function hourCases(make: HistoryStoreFactory): void {
  for (const packed of [false, true]) {
    const form = packed ? 'packed' : 'loose';
    test(`hours read the same after retention removed their ${form} 10-minute buckets`, () =>
      withHistoryStore(make, async (store) => {
        const batches = busyHours();
        await writeAll(store, batches);
        if (packed) await packAll(store);
        const before = await hourReads(store);
        assert.deepEqual(await hourRows(store), await hourRows(referenceOf(batches)));
        const inside = T0 + 2 * HOUR + 20 * MINUTE;
        await expireTens(store, inside);
        assert.ok((await tensFrom(store)) >= inside, 'the 10-minute buckets before it are gone');
        assert.deepEqual(await hourReads(store), before, 'cut inside an hour');
        await expireTens(store, T0 + DAY);
        assert.equal(await tensFrom(store), END, 'no 10-minute bucket is left');
        assert.deepEqual(await hourReads(store), before, 'all expired');
        if (packed) await packAll(store);
        assert.deepEqual(await hourReads(store), before, 'hours packed');
      }));
  }

  test('late data for hours whose 10-minute buckets expired lands in the hour', () =>
    withHistoryStore(make, async (store) => {
      const batches = busyHours();
      await writeAll(store, batches);
      await expireTens(store, T0 + DAY);
      await writeAll(store, LATE);
      const expected = await hourRows(referenceOf([...batches, ...LATE]));
      assert.deepEqual(await hourRows(store), expected);
      await expireTens(store, T0 + DAY);
      assert.equal(await tensFrom(store), END);
      assert.deepEqual(await hourRows(store), expected, 'and once the late buckets expired');
    }));
}
