/**
 * Fixtures, helpers and retention cases for the HistoryStore contract (history-contract.ts).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DAY, HOUR, MINUTE } from '../domain/clock.ts';
import type { Game } from '../domain/games.ts';
import type { MarketId } from '../domain/markets.ts';
import type { IngestBatch, SaleRecord, SideSnapshot } from '../domain/quote.ts';
import { TIERS, type Tier } from '../pricing/rollup-buckets.ts';
import { MemoryRollups } from '../pricing/rollup-memory.ts';
import type { RollupRow } from '../pricing/rollups.ts';
import { T0, sale as baseSale, side } from './contract-fixtures.ts';
import type { HistoryStore, SeriesKey } from './history-store.ts';
import type { PriceStore } from './price-store.ts';

export type HistoryStoreFactory = () => Promise<{
  store: PriceStore & HistoryStore;
  cleanup(): Promise<void>;
}>;

export async function withHistoryStore(
  make: HistoryStoreFactory,
  body: (store: PriceStore & HistoryStore) => Promise<void>,
): Promise<void> {
  const { store, cleanup } = await make();
  try {
    await store.init();
    await body(store);
  } finally {
    await store.close();
    await cleanup();
  }
}

export const ITEM = side().itemId;

const key = (market: MarketId | null, game: Game = 'cs2'): SeriesKey => ({
  game,
  itemId: ITEM,
  market,
});

export const SERIES = {
  aggregate: key(null),
  skinport: key('skinport'),
  csfloat: key('csfloat'),
  steamcommunity: key('steamcommunity'),
  buff163: key('buff163'),
} as const;

const ALL_SERIES: SeriesKey[] = [
  ...Object.values(SERIES),
  key(null, 'rust'),
  key('skinport', 'rust'),
];

export function ask(market: MarketId, price: number, offsetMs: number, game: Game = 'cs2') {
  return side({
    game,
    market,
    side: 'ask',
    levels: [
      { price, quantity: 2, orders: null },
      { price: price + 10, quantity: 1, orders: null },
    ],
    listingCount: 17,
    totalQuantity: 3,
    fetchedAt: T0 + offsetMs,
    ingestedAt: T0 + offsetMs + 250,
  });
}

export function bid(market: MarketId, price: number, offsetMs: number): SideSnapshot {
  return side({
    market,
    side: 'bid',
    levels: [{ price, quantity: 4, orders: 2 }],
    listingCount: null,
    totalQuantity: 4,
    fetchedAt: T0 + offsetMs,
    ingestedAt: T0 + offsetMs + 250,
  });
}

export function sale(market: MarketId, price: number, quantity: number, offsetMs: number) {
  return baseSale({ market, price, quantity, soldAt: T0 + offsetMs });
}

function fetch(sides: SideSnapshot[], sales: SaleRecord[] = []): IngestBatch {
  return { sides, sales, listings: [] };
}

/** A morning of activity, one batch per market fetch, in time order. */
export function activity(): IngestBatch[] {
  return [
    fetch([ask('skinport', 1234, MINUTE)]),
    fetch([ask('skinport', 777, MINUTE, 'rust')]),
    fetch([ask('csfloat', 1300, 2 * MINUTE), bid('csfloat', 1190, 2 * MINUTE)]),
    fetch([bid('steamcommunity', 1500, 3 * MINUTE)], [sale('csfloat', 1199, 1, 4 * MINUTE)]),
    fetch([ask('skinport', 1250, 5 * MINUTE)]),
    fetch([ask('skinport', 1200, 12 * MINUTE)]),
    fetch([bid('buff163', 1180, 65 * MINUTE)], [sale('csfloat', 1210, 2, 70 * MINUTE)]),
  ];
}

export type RollupSource = Pick<HistoryStore, 'readRollups'> | MemoryRollups;

/** Packs every period ended by the `now` it is used with; keeps everything. */
export const PACK_ALL = {
  retention: { '10m': null, '1h': null, '1d': null },
  settleAfter: { '10m': 0, '1h': 0, '1d': 0 },
  rowsPerStep: 7,
} as const;

/** Every series × tier of the fixtures, read from a store or the reference. */
export async function allRows(source: RollupSource): Promise<Record<string, RollupRow[]>> {
  const out: Record<string, RollupRow[]> = {};
  for (const series of ALL_SERIES) {
    for (const tier of TIERS) {
      const name = `${series.game}/${series.market ?? '*'}/${tier}`;
      const end = T0 + 400 * DAY;
      out[name] =
        'readRollups' in source
          ? await source.readRollups(series, tier, 0, end)
          : source.read(series, tier, 0, end);
    }
  }
  return out;
}

async function starts(store: HistoryStore, tier: Tier): Promise<number[]> {
  const rows = await store.readRollups(SERIES.skinport, tier, 0, T0 + 400 * DAY);
  return rows.map((row) => row.start);
}

export function retentionCases(make: HistoryStoreFactory, derivedHours = false): void {
  test('a retention pass deletes exactly the buckets ending by the cutoff, in small steps', () =>
    withHistoryStore(make, async (store) => {
      const offsets = [0, 10 * MINUTE, HOUR, 2 * HOUR, DAY + 50 * MINUTE, 2 * DAY + 5 * HOUR];
      for (const offset of offsets) {
        await store.writeBatch(fetch([ask('skinport', 1000, offset), ask('csfloat', 990, offset)]));
      }
      const before = {
        '10m': await starts(store, '10m'),
        '1d': await starts(store, '1d'),
      };
      const cutoff = T0 + 2 * HOUR;
      let cursor: string | null = null;
      let deleted = 0;
      let steps = 0;
      do {
        const step = await store.deleteRollupsBefore('1h', cutoff, { cursor, maxRows: 2 });
        assert.ok(step.deleted <= 2, 'a step stays within maxRows');
        deleted += step.deleted;
        cursor = step.cursor;
        steps += 1;
      } while (cursor !== null && steps < 100);
      assert.equal(cursor, null);
      const kept = [T0 + 2 * HOUR, T0 + DAY, T0 + 2 * DAY + 5 * HOUR];
      assert.deepEqual(await starts(store, '1h'), kept, 'the hour ending at the cutoff goes');
      const stored = derivedHours ? 0 : 2 * 3;
      assert.equal(deleted, stored, 'two expired hours in each of three series, if stored');
      assert.deepEqual(await starts(store, '10m'), before['10m'], 'other tiers untouched');
      assert.deepEqual(await starts(store, '1d'), before['1d']);
      const again = await store.deleteRollupsBefore('1h', cutoff, { cursor: null, maxRows: 50 });
      assert.deepEqual(again, { deleted: 0, cursor: null });
    }));
}

/** The in-memory reference rollups of `batches` (what every store must read back). */
export function referenceOf(batches: readonly IngestBatch[]): MemoryRollups {
  const memory = new MemoryRollups();
  for (const entry of batches) memory.record(entry.sides, entry.sales);
  return memory;
}

export async function writeAll(store: PriceStore, batches: readonly IngestBatch[]) {
  for (const entry of batches) await store.writeBatch(entry);
}

/** A repeatable stream of integers below `below` (a linear congruential generator). */
export function seededInts(seed: number): (below: number) => number {
  let state = seed;
  return (below) => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state % below;
  };
}
