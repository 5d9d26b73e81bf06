/**
 * The attribute-bucket half of the HistoryStore port, one suite every implementation runs
 * (SQLite and PostgreSQL): rows per tier, OHLC merging in any arrival order, a re-sent
 * observation counted once, range reads oldest first, and retention by tier.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { pointOf, type BucketObservation } from './bucket-history.ts';
import { DAY, HOUR, MINUTE } from '../domain/clock.ts';
import { withHistoryStore, type HistoryStoreFactory } from './history-contract-support.ts';

const T0 = Date.parse('2026-11-01T12:00:00Z');
const ID = 'buff163:cs2_aaaaaaaaaaaaaaaaaaaa:float:0.15-0.18';
const OTHER = 'csfloat:cs2_aaaaaaaaaaaaaaaaaaaa:tag:ruby';

function observed(at: number, askCents: number, extra: Partial<BucketObservation> = {}) {
  return {
    bucketId: ID,
    at,
    askCents,
    bidCents: askCents - 100,
    askListingCount: 3,
    bidOrderCount: 7,
    ...extra,
  } satisfies BucketObservation;
}

export function bucketHistoryContract(name: string, make: HistoryStoreFactory): void {
  describe(`bucket history contract: ${name}`, () => {
    test('observations merge into 10m, 1h and 1d OHLC rows, in any arrival order', async () => {
      await withHistoryStore(make, async (store) => {
        await store.recordBucketObservations([observed(T0 + 2 * MINUTE, 1200)]);
        await store.recordBucketObservations([
          observed(T0 + MINUTE, 1000),
          observed(T0 + 5 * MINUTE, 1100, { bidCents: null, askListingCount: 5 }),
          observed(T0 + 3 * MINUTE, 900, { bucketId: OTHER }),
        ]);
        const [row] = await store.readBucketRollups(ID, '10m', T0, T0 + 10 * MINUTE);
        assert.deepEqual(pointOf(row!), {
          bucketStart: T0,
          openAskCents: 1000,
          highAskCents: 1200,
          lowAskCents: 1000,
          closeAskCents: 1100,
          avgAskCents: 1100,
          closeBidCents: null,
          askListingCount: 5,
          bidOrderCount: 7,
          firstObservedAt: T0 + MINUTE,
          lastObservedAt: T0 + 5 * MINUTE,
        });
        const [day] = await store.readBucketRollups(ID, '1d', T0 - DAY, T0 + DAY);
        assert.equal(day!.start, Math.floor(T0 / DAY) * DAY);
        assert.deepEqual([day!.open, day!.close, day!.askN], [1000, 1100, 3]);
        const other = await store.readBucketRollups(OTHER, '1h', T0 - HOUR, T0 + HOUR);
        assert.deepEqual(
          other.map((r) => [r.start, r.open]),
          [[T0, 900]],
        );
      });
    });

    test('a re-sent observation is counted once', async () => {
      await withHistoryStore(make, async (store) => {
        const batch = [observed(T0, 1000), observed(T0 + MINUTE, 1300)];
        await store.recordBucketObservations(batch);
        await store.recordBucketObservations(batch);
        const [row] = await store.readBucketRollups(ID, '1h', T0, T0 + HOUR);
        assert.deepEqual([row!.askN, row!.askSum, row!.high], [2, 2300, 1300]);
      });
    });

    test('range reads are [from, to) by bucket start, oldest first', async () => {
      await withHistoryStore(make, async (store) => {
        await store.recordBucketObservations(
          [3, 0, 2, 1].map((step) => observed(T0 + step * 10 * MINUTE, 1000 + step)),
        );
        const rows = await store.readBucketRollups(ID, '10m', T0 + 10 * MINUTE, T0 + 30 * MINUTE);
        assert.deepEqual(
          rows.map((r) => [r.start - T0, r.close]),
          [
            [10 * MINUTE, 1001],
            [20 * MINUTE, 1002],
          ],
        );
        assert.deepEqual(await store.readBucketRollups('nowhere', '10m', 0, T0 * 2), []);
      });
    });

    test('retention deletes rows of one tier that end at or before the cutoff', async () => {
      await withHistoryStore(make, async (store) => {
        await store.recordBucketObservations([
          observed(T0, 1000),
          observed(T0 + 10 * MINUTE, 1001),
        ]);
        assert.equal(await store.deleteBucketRollupsBefore('10m', T0 + 10 * MINUTE - 1, 100), 0);
        assert.equal(await store.deleteBucketRollupsBefore('10m', T0 + 10 * MINUTE, 100), 1);
        const left = await store.readBucketRollups(ID, '10m', 0, T0 * 2);
        assert.deepEqual(
          left.map((r) => r.start),
          [T0 + 10 * MINUTE],
        );
        assert.equal((await store.readBucketRollups(ID, '1h', 0, T0 * 2)).length, 1);
        assert.equal(await store.deleteBucketRollupsBefore('10m', T0 + DAY, 1), 1);
      });
    });
  });
}
