import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { DAY, HOUR, MINUTE } from '../../domain/clock.ts';
import type { IngestBatch } from '../../domain/quote.ts';
import { TIERS } from '../../pricing/rollup-buckets.ts';
import { MemoryRollups } from '../../pricing/rollup-memory.ts';
import type { RollupRow, SidePartial } from '../../pricing/rollups.ts';
import { T0 } from '../contract-fixtures.ts';
import { compactHistory } from '../history-compaction.ts';
import { ask, bid, sale, SERIES } from '../history-contract-support.ts';
import type { HistoryStore, SeriesKey } from '../history-store.ts';
import { createSqlitePriceStore } from './sqlite-price-store.ts';

const BUCKETS = 30;
const QUIET_SERIES: SeriesKey[] = [SERIES.aggregate, SERIES.skinport, SERIES.csfloat];

/** Few prices, so that equal neighbours (and runs) are common. */
const fetchArb = fc.record({
  bucket: fc.integer({ min: 0, max: BUCKETS - 1 }),
  market: fc.constantFrom('skinport' as const, 'csfloat' as const),
  price: fc.constantFrom(1000, 1010),
  sold: fc.boolean(),
});

/**
 * Neighbouring buckets are fetched at different offsets (so runs join differing lastAt), but
 * one bucket always at the same one: a snapshot first delivered after its bucket joined a run
 * and older than the run's lastAt is skipped where the reference counts it (README, "Change-only
 * storage"), which this property leaves out.
 */
const offsetOf = (bucket: number) => (bucket % 2 === 0 ? MINUTE : 3 * MINUTE);

type Fetch = typeof fetchArb extends fc.Arbitrary<infer T> ? T : never;

/** Each step: a few fetches (in any time order), then maybe a run pass settled by some time. */
const stepArb = fc.record({
  fetches: fc.array(fetchArb, { minLength: 1, maxLength: 12 }),
  passAfterBuckets: fc.option(fc.integer({ min: 0, max: BUCKETS + 3 })),
});

function batchOf(fetch: Fetch): IngestBatch {
  const at = fetch.bucket * 10 * MINUTE + offsetOf(fetch.bucket);
  const quote =
    fetch.market === 'skinport'
      ? ask('skinport', fetch.price, at)
      : bid('csfloat', fetch.price, at);
  const sales = fetch.sold ? [sale('csfloat', fetch.price, 1, at)] : [];
  return { sides: [quote], sales, listings: [] };
}

const withoutLastAt = (side: SidePartial | null) => side && { ...side, lastAt: null };

function comparable(rows: RollupRow[]): RollupRow[] {
  return rows.map((row) => ({ ...row, ask: withoutLastAt(row.ask), bid: withoutLastAt(row.bid) }));
}

async function assertMatches(store: HistoryStore, reference: MemoryRollups): Promise<void> {
  for (const series of QUIET_SERIES) {
    for (const tier of TIERS) {
      const stored = await store.readRollups(series, tier, 0, T0 + DAY);
      const expected = reference.read(series, tier, 0, T0 + DAY);
      assert.deepEqual(comparable(stored), comparable(expected), `${series.market}/${tier}`);
      stored.forEach((row, index) => {
        for (const side of ['ask', 'bid'] as const) {
          const kept = row[side]?.lastAt ?? null;
          const counted = expected[index]![side]?.lastAt ?? null;
          assert.ok(kept === counted || (kept !== null && counted !== null && kept >= counted));
        }
      });
      const units = await store.readSaleCounts(series, tier, 0, T0 + DAY);
      const expectedUnits = expected.flatMap((row) =>
        row.sales ? [{ start: row.start, units: row.sales.n }] : [],
      );
      assert.deepEqual(units, expectedUnits);
    }
  }
}

describe('runs against the reference rollups', () => {
  test('random fetches, late data and run passes: every read matches the reference', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(stepArb, { minLength: 1, maxLength: 6 }), async (steps) => {
        const store = createSqlitePriceStore({ path: ':memory:' });
        await store.init();
        const reference = new MemoryRollups();
        try {
          for (const step of steps) {
            for (const fetch of step.fetches) {
              const batch = batchOf(fetch);
              await store.writeBatch(batch);
              reference.record(batch.sides, batch.sales);
            }
            if (step.passAfterBuckets === null) continue;
            await compactHistory(store, T0 + step.passAfterBuckets * 10 * MINUTE, {
              retention: { '10m': null, '1h': null, '1d': null },
              settleAfter: { '10m': 0, '1h': 0, '1d': 0 },
              rowsPerStep: 3,
            });
          }
          await compactHistory(store, T0 + DAY + HOUR, {
            retention: { '10m': null, '1h': null, '1d': null },
            settleAfter: { '10m': 0, '1h': 0, '1d': 0 },
          });
          await assertMatches(store, reference);
        } finally {
          await store.close();
        }
      }),
      { numRuns: 60 },
    );
  });
});
