import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { DAY, HOUR, MINUTE } from '../domain/clock.ts';
import type { MarketId } from '../domain/markets.ts';
import type { SaleRecord } from '../domain/quote.ts';
import { TIER_MS, type Tier } from './rollup-buckets.ts';
import { MemoryRollups } from './rollup-memory.ts';
import {
  emptyRow,
  mergeRow,
  sideObservation,
  TALLY,
  talliedMarkets,
  type RollupRow,
} from './rollups.ts';
import { side } from './snapshot-fixtures.ts';

const T = Date.parse('2026-11-01T00:00:00Z');
const ITEM = 'item-1';

function snapshot(kind: 'ask' | 'bid', market: MarketId, price: number, at: number, size = 5) {
  return side(kind, { market, prices: [price], fetchedAt: at, listingCount: size, itemId: ITEM });
}

function sold(market: MarketId, price: number, quantity: number, at: number): SaleRecord {
  const base = { game: 'cs2', itemId: ITEM, market, price, quantity, soldAt: at } as const;
  return { ...base, ingestedAt: at, originalCurrency: 'USD' };
}

const series = (market: MarketId | null) => ({ game: 'cs2' as const, itemId: ITEM, market });

describe('observations', () => {
  test('a side observes its best price, its quoteSize and (bids) its total quantity', () => {
    const bid = side('bid', { market: 'csfloat', prices: [900, 880], fetchedAt: T, quantity: 3 });
    assert.deepEqual(sideObservation({ ...bid, listingCount: null }), {
      market: 'csfloat',
      side: 'bid',
      price: 900,
      size: 6,
      quantity: 6,
      at: T,
    });
    assert.equal(sideObservation(snapshot('ask', 'skinport', 1, T))?.quantity, 0);
    assert.equal(
      sideObservation(side('ask', { market: 'skinport', prices: [], fetchedAt: T })),
      null,
    );
  });

  test('a snapshot counts once: not again, nor an older one in the same 10-minute bucket', () => {
    const memory = new MemoryRollups();
    const first = snapshot('ask', 'skinport', 1000, T + 5 * MINUTE);
    memory.record([first, first, snapshot('ask', 'skinport', 1, T + MINUTE)]);
    memory.record([snapshot('ask', 'skinport', 2000, T - MINUTE)]);
    const [day] = memory.read(series('skinport'), '1d', T, T + DAY);
    assert.deepEqual(
      [day?.ask?.prices.n, day?.ask?.prices.min, day?.ask?.prices.max],
      [1, 1000, 1000],
    );
    const [previous] = memory.read(series('skinport'), '1d', T - DAY, T);
    assert.equal(previous?.ask?.prices.n, 1, 'an older bucket still takes its first snapshot');
  });

  test('the aggregate takes every ask but only cash-executable bids; sales count units', () => {
    const memory = new MemoryRollups();
    memory.record(
      [
        snapshot('ask', 'steamcommunity', 1100, T),
        snapshot('bid', 'steamcommunity', 1300, T),
        snapshot('bid', 'csfloat', 1000, T),
      ],
      [sold('steamcommunity', 1200, 3, T), sold('csfloat', 1150, 1, T)],
    );
    const [row] = memory.read(series(null), '10m', T, T + DAY);
    assert.equal(row?.ask?.prices.min, 1100);
    assert.deepEqual(row && talliedMarkets(row.bid!), ['csfloat']);
    assert.equal(row?.bid?.markets[TALLY.top], 1000);
    assert.deepEqual([row?.sales?.n, row?.sales?.sum], [4, 3 * 1200 + 1150]);
    const [steam] = memory.read(series('steamcommunity'), '10m', T, T + DAY);
    assert.equal(steam?.bid?.prices.max, 1300, 'its own series keeps the wallet bid');
  });
});

const MARKETS: MarketId[] = ['steamcommunity', 'skinport', 'csfloat', 'buff163'];

const streamArbitrary = fc.array(
  fc.record({
    kind: fc.constantFrom('ask', 'bid', 'sale'),
    market: fc.constantFrom(...MARKETS),
    price: fc.integer({ min: 1, max: 200_000 }),
    size: fc.nat(500),
    offset: fc.nat(3 * DAY),
  }),
  { maxLength: 120 },
);

function withoutLastAt(row: RollupRow): RollupRow {
  const clean = structuredClone(row);
  for (const part of [clean.ask, clean.bid]) if (part) part.lastAt = null;
  return clean;
}

function assertMergesInto(
  memory: MemoryRollups,
  market: MarketId | null,
  fine: Tier,
  coarse: Tier,
) {
  for (const big of memory.read(series(market), coarse, 0, T + 10 * DAY)) {
    const merged = emptyRow(big.start);
    for (const small of memory.read(series(market), fine, big.start, big.start + TIER_MS[coarse])) {
      mergeRow(merged, small);
    }
    assert.deepEqual(withoutLastAt(merged), withoutLastAt(big));
  }
}

describe('property: coarse buckets are the merge of the fine buckets they cover', () => {
  test('1h = merge of its 10m (min of mins, max of maxes, counts add up), 1d = merge of its 1h', () => {
    fc.assert(
      fc.property(streamArbitrary, (stream) => {
        const memory = new MemoryRollups();
        const ordered = [...stream].sort((a, b) => a.offset - b.offset);
        for (const entry of ordered) {
          const at = T + entry.offset;
          if (entry.kind === 'sale')
            memory.record([], [sold(entry.market, entry.price, 1 + (entry.size % 3), at)]);
          else memory.record([snapshot(entry.kind, entry.market, entry.price, at, entry.size)]);
        }
        for (const market of [null, ...MARKETS]) {
          assertMergesInto(memory, market, '10m', '1h');
          assertMergesInto(memory, market, '1h', '1d');
        }
        const counted = memory.read(series(null), '1d', 0, T + 10 * DAY);
        const hours = memory.read(series(null), '1h', 0, T + 10 * DAY);
        const total = (rows: RollupRow[]) =>
          rows.reduce((sum, row) => sum + (row.ask?.prices.n ?? 0) + (row.sales?.n ?? 0), 0);
        assert.equal(total(counted), total(hours));
      }),
      { numRuns: 150 },
    );
  });

  test('an hour holds the min of its 10-minute minima and the max of their maxima', () => {
    const memory = new MemoryRollups();
    memory.record([
      snapshot('ask', 'skinport', 500, T + MINUTE),
      snapshot('ask', 'csfloat', 900, T + 15 * MINUTE),
    ]);
    memory.record([snapshot('ask', 'skinport', 450, T + 50 * MINUTE)]);
    const [hour] = memory.read(series(null), '1h', T, T + HOUR);
    assert.deepEqual(
      [hour?.ask?.prices.min, hour?.ask?.prices.max, hour?.ask?.prices.n],
      [450, 900, 3],
    );
  });
});
