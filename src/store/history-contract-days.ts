/**
 * HistoryStore contract cases for days across packing and 10-minute retention: every read of
 * the daily tier answers the same while the day's 10-minute buckets are loose, once they are
 * packed (a store may derive a day until then and store it at packing), and once retention
 * removed them (cut inside a day, small steps, with or without packing); late data lands in a
 * day whatever its state, and the daily tier's own retention removes derived days too.
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
  referenceOf,
  seededInts,
  withHistoryStore,
  writeAll,
  type HistoryStoreFactory,
} from './history-contract-support.ts';
import type { HistoryStore } from './history-store.ts';

const END = T0 + 400 * DAY;
const READ_SERIES = [SERIES.aggregate, SERIES.skinport, SERIES.csfloat, SERIES.steamcommunity];
/** Days with activity (offsets from T0); day 2 stays quiet. */
const ACTIVE_DAYS = [0, 1, 3];

/** A fetch in every hour of the active days, sales now and then. */
function busyDays(): IngestBatch[] {
  const next = seededInts(23);
  const batches: IngestBatch[] = [];
  for (const day of ACTIVE_DAYS) {
    for (let slot = 0; slot < 24; slot += 1) {
      const at = day * DAY + slot * HOUR + next(20 * MINUTE);
      const price = 1000 + next(400);
      batches.push({
        sides: [
          ask('skinport', price, at),
          ask('csfloat', 150_000 + next(80_000), at),
          bid('steamcommunity', price - next(100), at),
        ],
        sales: slot % 3 === 0 ? [sale('csfloat', price + next(50), 1 + next(3), at)] : [],
        listings: [],
      });
    }
  }
  return batches;
}

/**
 * Late data at `hour` of each of `days`: into stored, derived, quiet and expired days, in
 * 10-minute buckets busyDays leaves empty (a snapshot no later than one its 10-minute bucket
 * counted is dropped, which no store can do once that bucket expired).
 */
function lateInto(days: readonly number[], hour = 7): IngestBatch[] {
  return days.map((day, index) => ({
    sides: [ask('skinport', 1999 - index, day * DAY + hour * HOUR + (25 + index) * MINUTE)],
    sales: [sale('csfloat', 1450 + index, 2, day * DAY + (hour + 2) * HOUR)],
    listings: [],
  }));
}

/** Every kind of daily read, whole and partial ranges. */
async function dayReads(store: HistoryStore) {
  const out: Record<string, unknown> = {};
  for (const series of READ_SERIES) {
    const name = series.market ?? '*';
    out[`${name}/all`] = await store.readRollups(series, '1d', 0, END);
    out[`${name}/part`] = await store.readRollups(series, '1d', T0 + 1, T0 + 3 * DAY + 1);
    out[`${name}/sales`] = await store.readRollups(series, '1d', 0, END, ['sales']);
    out[`${name}/units`] = await store.readSaleCounts(series, '1d', 0, END);
    out[`${name}/unitsPart`] = await store.readSaleCounts(series, '1d', T0 + DAY, T0 + 3 * DAY);
    const scanned: RollupRow[] = [];
    const keep = (row: RollupRow) => void scanned.push(structuredClone(row));
    await store.scanRollups?.(series, '1d', T0, END, ['ask', 'bid'], keep, ['bid']);
    out[`${name}/scan`] = scanned;
  }
  return out;
}

async function expectReference(store: HistoryStore, batches: IngestBatch[], what: string) {
  const reference = referenceOf(batches);
  for (const series of READ_SERIES) {
    const expected = reference.read(series, '1d', 0, END);
    assert.deepEqual(await store.readRollups(series, '1d', 0, END), expected, what);
  }
}

const upkeep = (store: HistoryStore, now: number, pack: boolean, tens: number | null = null) =>
  compactHistory(store, now, {
    retention: { '10m': tens, '1h': null, '1d': null },
    settleAfter: { '10m': pack ? 0 : null, '1h': null, '1d': null },
    rowsPerStep: 40,
  });

/** Expires the 10-minute buckets ending by `cutoff`. */
const expireTens = (store: HistoryStore, cutoff: number, pack: boolean) =>
  upkeep(store, cutoff + 90 * DAY, pack, 90 * DAY);

export function dayCases(make: HistoryStoreFactory): void {
  test('days read the same once their 10-minute days are packed, then expired; late data lands', () =>
    withHistoryStore(make, async (store) => {
      const batches = busyDays();
      await writeAll(store, batches);
      const before = await dayReads(store);
      await expectReference(store, batches, 'as written');
      await upkeep(store, T0 + 2 * DAY, true);
      assert.deepEqual(await dayReads(store), before, 'two days packed, the third not');
      const late = lateInto([1, 2, 3]);
      await writeAll(store, late);
      await expectReference(store, [...batches, ...late], 'late data into every kind of day');
      const after = await dayReads(store);
      await upkeep(store, T0 + 5 * DAY, true);
      assert.deepEqual(await dayReads(store), after, 'all packed');
      await expireTens(store, T0 + 3 * DAY + 5 * HOUR + 20 * MINUTE, true);
      assert.deepEqual(await dayReads(store), after, 'retention cut inside a day');
      await expireTens(store, T0 + 5 * DAY, true);
      assert.deepEqual(await dayReads(store), after, 'all 10-minute buckets expired');
      const later = lateInto([0, 3], 12);
      await writeAll(store, later);
      await expectReference(store, [...batches, ...late, ...later], 'late data, expired days');
    }));

  test('days read the same once retention removed their loose 10-minute buckets', () =>
    withHistoryStore(make, async (store) => {
      const batches = busyDays();
      await writeAll(store, batches);
      const before = await dayReads(store);
      await expireTens(store, T0 + DAY + 13 * HOUR, false);
      assert.deepEqual(await dayReads(store), before, 'cut inside a day');
      await expireTens(store, T0 + 5 * DAY, false);
      assert.deepEqual(await dayReads(store), before, 'all expired');
      const late = lateInto([1, 3]);
      await writeAll(store, late);
      await expectReference(store, [...batches, ...late], 'late data');
    }));

  test("the daily tier's retention removes the days before its cutoff, derived or stored", () =>
    withHistoryStore(make, async (store) => {
      const batches = busyDays();
      await writeAll(store, batches);
      await upkeep(store, T0 + DAY, true);
      const expected = referenceOf(batches).read(SERIES.aggregate, '1d', T0 + 2 * DAY, END);
      let cursor: string | null = null;
      do {
        const step = await store.deleteRollupsBefore('1d', T0 + 2 * DAY, { cursor, maxRows: 3 });
        cursor = step.cursor;
      } while (cursor !== null);
      assert.deepEqual(await store.readRollups(SERIES.aggregate, '1d', 0, END), expected);
      const tens = await store.readRollups(SERIES.aggregate, '10m', 0, END);
      assert.equal(tens.length > 0 && tens[0]!.start, T0, 'the 10-minute tier is untouched');
    }));
}
