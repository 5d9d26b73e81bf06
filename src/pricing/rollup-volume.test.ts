import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { DAY, HOUR, MINUTE } from '../domain/clock.ts';
import { bucketStart, TIER_MS, TIERS, type Tier } from './rollup-buckets.ts';
import { SaleCounter, SALES_WINDOW_MS, volumeSpans, type SaleCount } from './rollup-volume.ts';

const T = Date.parse('2026-11-01T00:00:00Z');

interface Sold {
  at: number;
  units: number;
}

/** Stored per-bucket counts of every tier, restricted to the spans a read would load. */
function loadedCounts(sales: Sold[], first: number, last: number, tier: Tier, windowMs: number) {
  const counts: Partial<Record<Tier, SaleCount[]>> = {};
  for (const span of volumeSpans(first, last, tier, windowMs)) {
    const byStart = new Map<number, number>();
    for (const sale of sales) {
      const start = bucketStart(sale.at, span.tier);
      if (start >= span.fromMs && start < span.toMs) {
        byStart.set(start, (byStart.get(start) ?? 0) + sale.units);
      }
    }
    const list = (counts[span.tier] ??= []);
    for (const [start, units] of byStart) list.push({ start, units });
  }
  return counts;
}

function bruteForce(sales: Sold[], end: number, windowMs: number): number {
  return sales
    .filter((sale) => sale.at >= end - windowMs && sale.at < end)
    .reduce((sum, sale) => sum + sale.units, 0);
}

describe('rolling volume', () => {
  test('each bucket counts the window ending at its end, so adjacent volumes overlap', () => {
    const sales = [
      { at: T + 90 * MINUTE, units: 2 },
      { at: T + 5 * HOUR, units: 1 },
      { at: T + DAY + 10 * MINUTE, units: 4 },
    ];
    const first = T + DAY;
    const last = T + DAY + HOUR;
    const counter = new SaleCounter(loadedCounts(sales, first, last, '1h', DAY));
    const volumes = [first, last].map((start) => counter.rollingVolume(start, '1h', DAY));
    assert.deepEqual(volumes, [2 + 1 + 4, 1 + 4]);
    assert.ok(volumes[0]! + volumes[1]! > 7, 'summing them would count sales twice');
  });

  test('equals a brute-force count for every tier and window, loading only the needed spans', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ offset: fc.nat(100 * DAY), units: fc.integer({ min: 1, max: 5 }) })),
        fc.constantFrom(...TIERS),
        fc.constantFrom('24h', '7d', '30d', '90d') as fc.Arbitrary<keyof typeof SALES_WINDOW_MS>,
        fc.nat(60),
        (raw, tier, window, at) => {
          const sales = raw.map((sale) => ({ at: T + sale.offset, units: sale.units }));
          const width = TIER_MS[tier];
          const first = bucketStart(T + 95 * DAY, tier) - at * width;
          const last = first + 12 * width;
          const windowMs = SALES_WINDOW_MS[window];
          const counter = new SaleCounter(loadedCounts(sales, first, last, tier, windowMs));
          for (let start = first; start <= last; start += width) {
            const expected = bruteForce(sales, start + width, windowMs);
            assert.equal(counter.rollingVolume(start, tier, windowMs), expected);
          }
        },
      ),
      { numRuns: 60 },
    );
  });

  test('the loaded spans stay few: a 180-day hourly read needs one day range and one hour range', () => {
    const spans = volumeSpans(T, T + 180 * DAY - HOUR, '1h', SALES_WINDOW_MS['30d']);
    assert.deepEqual(
      spans.map((span) => [span.tier, span.fromMs, span.toMs]),
      [
        ['1h', T - 30 * DAY + HOUR, T + 180 * DAY - HOUR],
        ['1d', T - 29 * DAY, T + 180 * DAY],
      ],
    );
  });
});
