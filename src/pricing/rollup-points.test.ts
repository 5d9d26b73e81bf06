import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { MINUTE } from '../domain/clock.ts';
import type { MarketId } from '../domain/markets.ts';
import { MemoryRollups } from './rollup-memory.ts';
import { bucketTimestamp, historyPoint, midSpreadBps } from './rollup-points.ts';
import { side } from './snapshot-fixtures.ts';

const T = Date.parse('2026-11-01T00:00:00Z');
const series = (market: MarketId | null) => ({ game: 'cs2' as const, itemId: 'item-1', market });

function book(kind: 'ask' | 'bid', market: MarketId, price: number, minute: number, size = 4) {
  return side(kind, {
    market,
    prices: [price],
    fetchedAt: T + minute * MINUTE,
    listingCount: size,
    quantity: size + 1,
  });
}

function bucket(memory: MemoryRollups, market: MarketId | null) {
  const [row] = memory.read(series(market), '10m', T, T + 10 * MINUTE);
  assert.ok(row, 'the bucket exists');
  return row;
}

describe('history points', () => {
  const memory = new MemoryRollups();
  memory.record([
    book('ask', 'skinport', 1200, 1, 10),
    book('ask', 'skinport', 1210, 4, 13),
    book('ask', 'csfloat', 1250, 2, 3),
    book('bid', 'csfloat', 1000, 2, 6),
    book('bid', 'buff163', 1300, 3, 2),
    book('bid', 'steamcommunity', 1190, 3, 50),
  ]);

  test('SELL_OFFER: statistics of the observed asks, listings summed over markets', () => {
    assert.deepEqual(historyPoint(bucket(memory, null), 'SELL_OFFER', 'aggregate'), {
      timestamp: '2026-11-01T00:00:00.000Z',
      avgPrice: 1220,
      medianPrice: 1210,
      minPrice: 1200,
      maxPrice: 1250,
      bestAskCents: 1200,
      bestBidCents: 1000,
      spreadBps: 1818,
      listingCount: 12 + 3,
      totalQuantity: null,
      volume: null,
    });
  });

  test('aggregate bestBid: the best cash-executable bid not above the best ask', () => {
    const point = historyPoint(bucket(memory, null), 'BUY_ORDER', 'aggregate')!;
    assert.equal(point.bestBidCents, 1000, 'buff163 bids 1300 over the 1200 ask; steam is wallet');
    assert.deepEqual(
      [point.minPrice, point.maxPrice, point.listingCount, point.totalQuantity],
      [1000, 1300, 6 + 2, 7 + 3],
    );
    assert.ok(point.spreadBps! >= 0);
  });

  test('per-market series use their own quotes and may show a negative spread', () => {
    const own = new MemoryRollups();
    own.record([book('ask', 'buff163', 1200, 1), book('bid', 'buff163', 1300, 1)]);
    const point = historyPoint(bucket(own, 'buff163'), 'SELL_OFFER', 'market')!;
    assert.deepEqual([point.bestAskCents, point.bestBidCents, point.spreadBps], [1200, 1300, -800]);
    const steam = historyPoint(bucket(memory, 'steamcommunity'), 'BUY_ORDER', 'market')!;
    assert.deepEqual([steam.bestBidCents, steam.bestAskCents, steam.spreadBps], [1190, null, null]);
  });

  test('with no ask observed the aggregate takes the best cash bid', () => {
    const bids = new MemoryRollups();
    bids.record([book('bid', 'csfloat', 900, 1), book('bid', 'buff163', 950, 2)]);
    assert.equal(historyPoint(bucket(bids, null), 'BUY_ORDER', 'aggregate')?.bestBidCents, 950);
  });

  test('a bucket without that listing type has no point', () => {
    const asks = new MemoryRollups();
    asks.record([book('ask', 'skinport', 1200, 1)]);
    assert.equal(historyPoint(bucket(asks, null), 'BUY_ORDER', 'aggregate'), null);
    assert.equal(historyPoint(bucket(asks, null), 'SALE_HISTORY', 'aggregate', 4), null);
    const wallet = new MemoryRollups();
    wallet.record([book('bid', 'steamcommunity', 1200, 1), book('ask', 'skinport', 1300, 1)]);
    assert.equal(historyPoint(bucket(wallet, null), 'BUY_ORDER', 'aggregate'), null);
  });

  test('SALE_HISTORY: sale statistics, units as listingCount, the given rolling volume', () => {
    const sales = new MemoryRollups();
    const sale = { game: 'cs2', itemId: 'item-1', ingestedAt: T, originalCurrency: 'USD' } as const;
    sales.record(
      [book('ask', 'skinport', 1300, 1)],
      [
        { ...sale, market: 'csfloat', price: 1000, quantity: 2, soldAt: T },
        { ...sale, market: 'skinport', price: 1100, quantity: 1, soldAt: T + MINUTE },
      ],
    );
    const point = historyPoint(bucket(sales, null), 'SALE_HISTORY', 'aggregate', 41)!;
    assert.deepEqual(
      [point.avgPrice, point.medianPrice, point.listingCount, point.volume, point.bestAskCents],
      [1033, 1000, 3, 41, 1300],
    );
  });

  test('the spread divisor is the mid price', () => {
    assert.equal(midSpreadBps(1100, 900), 2000);
    assert.equal(midSpreadBps(null, 900), null);
  });

  test('bucket timestamps are the ISO 8601 UTC strings of the bucket starts', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 42 }), fc.boolean(), (ms, aligned) => {
        const at = aligned ? ms - (ms % MINUTE) : ms;
        assert.equal(bucketTimestamp(at), new Date(at).toISOString());
      }),
    );
  });
});
