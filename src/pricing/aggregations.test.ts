import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { MINUTE } from '../domain/clock.ts';
import {
  aggregateMaxOrders,
  aggregateMinPrices,
  maxOrdersItem,
  minPricesItem,
} from './aggregations.ts';
import { ALL_MARKETS } from './top-of-book.ts';
import { ask, bid, book, ITEM, NOW } from './test-fixtures.ts';

const sides = book(
  ask(
    'csfloat',
    [
      [1010, 2],
      [1020, 1],
    ],
    { listingCount: 7, ingestLatencyMs: 400 },
  ),
  ask('buff163', [[990, 3, null]], { ageMs: 45 * MINUTE, listingCount: null }),
  ask('skinport', [[1010, 1]]),
  bid('csfloat', [[940, 2]]),
  bid(
    'buff163',
    [
      [960, 4],
      [950, 1],
    ],
    { listingCount: 3 },
  ),
  bid('steamcommunity', [[1100, 9]]),
);

describe('min-prices', () => {
  test('one row per market, cheapest first, stale rows kept', () => {
    const row = minPricesItem(ITEM, sides, ALL_MARKETS, NOW);
    assert.equal(row.canonical_item_id, ITEM.id);
    assert.equal(row.market_hash_name, ITEM.marketHashName);
    assert.deepEqual(
      row.prices.map((price) => [price.market_name, price.price, price.is_stale]),
      [
        ['buff163', 990, true],
        ['csfloat', 1010, false],
        ['skinport', 1010, false],
      ],
    );
    assert.deepEqual(row.prices[1], {
      market_name: 'csfloat',
      offers: 7,
      price: 1010,
      updated_at: '2026-11-01T11:59:00.000Z',
      is_stale: false,
      ingested_at: '2026-11-01T11:59:00.400Z',
      ingest_latency_ms: 400,
    });
    assert.equal(row.prices[0]?.offers, 3, 'no count: the level quantity where orders are unknown');
  });

  test('markets filter', () => {
    const row = minPricesItem(ITEM, sides, { markets: new Set(['skinport'] as const) }, NOW);
    assert.deepEqual(
      row.prices.map((price) => price.market_name),
      ['skinport'],
    );
  });

  test('an item without quotes keeps its row with no prices', () => {
    const other = { id: 'cs2-other', marketHashName: 'Other' };
    const result = aggregateMinPrices(
      [
        { item: ITEM, sides },
        { item: other, sides: [] },
      ],
      ALL_MARKETS,
      NOW,
    );
    assert.deepEqual(
      result.items.map((item) => [item.market_hash_name, item.prices.length]),
      [
        [ITEM.marketHashName, 3],
        ['Other', 0],
      ],
    );
  });
});

describe('max-orders', () => {
  test('highest first, cash-only by default, with total quantity', () => {
    const row = maxOrdersItem(ITEM, sides, ALL_MARKETS, NOW);
    assert.deepEqual(
      row.orders.map((order) => [
        order.market_name,
        order.price,
        order.offers,
        order.total_quantity,
      ]),
      [
        ['buff163', 960, 3, 5],
        ['csfloat', 940, 2, 2],
      ],
    );
  });

  test('an explicit markets list takes the wallet bid verbatim', () => {
    const selection = { markets: new Set(['steamcommunity', 'csfloat'] as const) };
    const result = aggregateMaxOrders([{ item: ITEM, sides }], selection, NOW);
    assert.deepEqual(
      result.items[0]?.orders.map((order) => order.market_name),
      ['steamcommunity', 'csfloat'],
    );
  });
});
