import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { MINUTE } from '../domain/clock.ts';
import { ALL_MARKETS } from './top-of-book.ts';
import { ask, bid, marketSides } from './snapshot-fixtures.ts';
import { pricingSnapshot, pricingSpreadBps, quoteSize } from './snapshot.ts';

const NOW = Date.parse('2026-11-01T12:00:00Z');
const ITEM = { id: 'cs2-1', marketHashName: 'AK-47 | Redline (Field-Tested)' };
const fresh = NOW - MINUTE;

describe('pricingSnapshot', () => {
  test('builds rows, aggregate and top of book from the asks and bids', () => {
    const sides = marketSides([
      ask({
        market: 'skinport',
        prices: [1600, 1700],
        fetchedAt: fresh,
        sourceUpdatedAt: fresh - 90_500,
        sourceTimeKind: 'last_modified',
      }),
      ask({ market: 'csfloat', prices: [1500], fetchedAt: fresh, listingCount: 7 }),
      ask({ market: 'dmarket', prices: [1550], fetchedAt: NOW - 40 * MINUTE }),
      bid({ market: 'csfloat', prices: [1400, 1300], fetchedAt: fresh, quantity: 2 }),
    ]);
    const snapshot = pricingSnapshot(ITEM, sides, ALL_MARKETS, NOW);
    assert.deepEqual(
      snapshot.markets.map((row) => [row.market, row.price, row.isStale]),
      [
        ['csfloat', 1500, false],
        ['dmarket', 1550, true],
        ['skinport', 1600, false],
      ],
    );
    assert.deepEqual(snapshot.markets[2], {
      market: 'skinport',
      price: 1600,
      currency: 'USD',
      fetchedAt: new Date(fresh).toISOString(),
      ingestedAt: new Date(fresh + 250).toISOString(),
      quoteSize: 2,
      ingestLatencyMs: 250,
      isStale: false,
      sourceUpdatedAt: new Date(fresh - 90_500).toISOString(),
      sourceTimeKind: 'last_modified',
      sourceAgeSeconds: 90,
    });
    assert.deepEqual(snapshot.aggregate, {
      minPrice: 1500,
      maxPrice: 1600,
      avgPrice: 1550,
      medianPrice: 1550,
      stdDev: 40.82,
      marketCount: 3,
      freshMarketCount: 2,
      listingCount: 7 + 1 + 2,
      updatedAt: new Date(fresh).toISOString(),
    });
    assert.deepEqual(snapshot.buyOrders[0], {
      market: 'csfloat',
      price: 1400,
      currency: 'USD',
      fetchedAt: new Date(fresh).toISOString(),
      ingestedAt: new Date(fresh + 250).toISOString(),
      quoteSize: 4,
      totalQuantity: 4,
      ingestLatencyMs: 250,
      isStale: false,
    });
    assert.deepEqual(snapshot.bestAsk, {
      market: 'csfloat',
      price: 1500,
      updatedAt: new Date(fresh).toISOString(),
      isStale: false,
    });
    assert.equal(snapshot.bestBid?.price, 1400);
    assert.equal(snapshot.spreadBps, 714);
    assert.equal(snapshot.marketCount, 3);
    assert.equal(snapshot.freshMarketCount, 2);
    assert.equal(snapshot.calculatedAt, '2026-11-01T12:00:00.000Z');
  });

  test('staleness: exactly 30 minutes is fresh, one millisecond more is stale', () => {
    const at30 = pricingSnapshot(
      ITEM,
      marketSides([ask({ market: 'skinport', prices: [100], fetchedAt: NOW - 30 * MINUTE })]),
      ALL_MARKETS,
      NOW,
    );
    assert.equal(at30.markets[0]?.isStale, false);
    assert.equal(at30.bestAsk?.isStale, false);
    const later = pricingSnapshot(
      ITEM,
      marketSides([ask({ market: 'skinport', prices: [100], fetchedAt: NOW - 30 * MINUTE })]),
      ALL_MARKETS,
      NOW + 1,
    );
    assert.equal(later.markets[0]?.isStale, true);
    assert.equal(later.bestAsk?.isStale, true);
    assert.equal(later.freshMarketCount, 0);
  });

  test('no quotes: empty rows, null aggregate and null top of book', () => {
    const snapshot = pricingSnapshot(ITEM, [], ALL_MARKETS, NOW);
    assert.equal(snapshot.aggregate, null);
    assert.deepEqual([snapshot.markets, snapshot.buyOrders], [[], []]);
    assert.equal(snapshot.bestAsk, null);
    assert.equal(snapshot.bestBid, null);
    assert.equal(snapshot.spreadBps, null);
    assert.equal(snapshot.marketCount, 0);
  });

  test('wallet-credit bids are listed but only count for bestBid with an explicit markets list', () => {
    const sides = marketSides([
      ask({ market: 'skinport', prices: [1000], fetchedAt: fresh }),
      bid({ market: 'steamcommunity', prices: [990], fetchedAt: fresh }),
      bid({ market: 'csfloat', prices: [900], fetchedAt: fresh }),
    ]);
    const open = pricingSnapshot(ITEM, sides, ALL_MARKETS, NOW);
    assert.deepEqual(
      open.buyOrders.map((row) => row.market),
      ['steamcommunity', 'csfloat'],
    );
    assert.equal(open.bestBid?.market, 'csfloat');
    const explicit = pricingSnapshot(
      ITEM,
      sides,
      { markets: new Set(['skinport', 'steamcommunity'] as const) },
      NOW,
    );
    assert.equal(explicit.bestBid?.market, 'steamcommunity');
    assert.deepEqual(
      explicit.buyOrders.map((row) => row.market),
      ['steamcommunity'],
    );
    assert.equal(explicit.spreadBps, 101);
  });

  test('a markets list restricts asks, bids and counts', () => {
    const sides = marketSides([
      ask({ market: 'skinport', prices: [1000], fetchedAt: fresh }),
      ask({ market: 'csfloat', prices: [900], fetchedAt: fresh }),
    ]);
    const snapshot = pricingSnapshot(ITEM, sides, { markets: new Set(['skinport'] as const) }, NOW);
    assert.deepEqual(
      snapshot.markets.map((row) => row.market),
      ['skinport'],
    );
    assert.equal(snapshot.marketCount, 1);
    assert.equal(snapshot.aggregate?.minPrice, 1000);
  });

  test('empty sides do not count as quotes', () => {
    const sides = marketSides([ask({ market: 'skinport', prices: [], fetchedAt: fresh })]);
    const snapshot = pricingSnapshot(ITEM, sides, ALL_MARKETS, NOW);
    assert.equal(snapshot.markets.length, 0);
    assert.equal(snapshot.marketCount, 0);
  });
});

describe('quote rows', () => {
  test('times rendered for a side follow a changed side', () => {
    const quote = ask({ market: 'skinport', prices: [100], fetchedAt: NOW });
    const sides = marketSides([quote]);
    assert.equal(
      pricingSnapshot(ITEM, sides, ALL_MARKETS, NOW).markets[0]?.fetchedAt,
      new Date(NOW).toISOString(),
    );
    quote.fetchedAt = NOW - 1000;
    const again = pricingSnapshot(ITEM, sides, ALL_MARKETS, NOW).markets[0];
    assert.equal(again?.fetchedAt, new Date(NOW - 1000).toISOString());
  });
});

describe('pricingSpreadBps', () => {
  test('divides by the bid and is null for a missing side, a crossed book or a gap over 10000', () => {
    assert.equal(pricingSpreadBps(1100, 1000), 1000);
    assert.equal(pricingSpreadBps(1000, 1000), 0);
    assert.equal(pricingSpreadBps(2000, 1000), 10_000);
    assert.equal(pricingSpreadBps(2001, 1000), null);
    assert.equal(pricingSpreadBps(999, 1000), null);
    assert.equal(pricingSpreadBps(null, 1000), null);
    assert.equal(pricingSpreadBps(1000, null), null);
    assert.equal(pricingSpreadBps(1000, 0), null);
  });
});

describe('quoteSize', () => {
  test('uses the listing count, else the order counts of the levels', () => {
    assert.equal(
      quoteSize(ask({ market: 'skinport', prices: [1, 2], fetchedAt: 0, listingCount: 9 })),
      9,
    );
    assert.equal(
      quoteSize(
        ask({ market: 'skinport', prices: [1, 2], fetchedAt: 0, listingCount: null, quantity: 3 }),
      ),
      6,
    );
  });
});
