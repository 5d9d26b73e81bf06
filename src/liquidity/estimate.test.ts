import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { DAY, HOUR, MINUTE } from '../domain/clock.ts';
import type { SaleRecord } from '../domain/quote.ts';
import { ask, marketSides } from '../pricing/snapshot-fixtures.ts';
import { liquidityRecord, type LiquidityInput } from './estimate.ts';
import { LIQUIDITY_MARKETS } from './markets.ts';
import { queueTimes } from './queue-time.ts';
import { evenSales, sale } from './test-fixtures.ts';

const NOW = Date.parse('2026-11-20T12:00:00Z');
const item = { id: 'item-1', marketHashName: 'AK-47 | Redline (Field-Tested)' };
const near = (actual: number | null, expected: number) =>
  assert.ok(actual !== null && Math.abs(actual - expected) < 0.02, `${actual} vs ${expected}`);

/** csfloat: 48 sales in 24 h, ladder 1000×2, 1010×2; steam: 12 a day, best ask 1100. */
function input(overrides: Partial<LiquidityInput> = {}): LiquidityInput {
  return {
    item,
    markets: LIQUIDITY_MARKETS.cs2,
    sides: marketSides([
      ask({ market: 'csfloat', prices: [1000, 1010], quantity: 2, fetchedAt: NOW - MINUTE }),
      ask({ market: 'steamcommunity', prices: [1100], quantity: 5, fetchedAt: NOW - MINUTE }),
    ]),
    sales: [
      ...evenSales('csfloat', 48, NOW - 10 * MINUTE, 30 * MINUTE),
      ...evenSales('steamcommunity', 12, NOW - 10 * MINUTE, 2 * HOUR),
    ],
    salesStats: [],
    askPrice: null,
    now: NOW,
    ...overrides,
  };
}

describe('reference price and queue position', () => {
  test('no askPrice: the cheapest ask; csfloat’s 2 units at it are ahead', () => {
    const record = liquidityRecord(input());
    assert.equal(record.referenceAskUsdCents, 1000);
    const csfloat = record.metrics.find((row) => row.market === 'csfloat')!;
    near(csfloat.medianTimeToSellHours, queueTimes(2, 48, 48)!.medianHours);
    // Steam's best ask is above the reference: the listing is at its front.
    const steam = record.metrics.find((row) => row.market === 'steamcommunity')!;
    near(steam.medianTimeToSellHours, queueTimes(0, steam.salesPerDay!, 12)!.medianHours);
  });

  test('below the best ask: front of the queue everywhere', () => {
    const record = liquidityRecord(input({ askPrice: 999 }));
    const csfloat = record.metrics.find((row) => row.market === 'csfloat')!;
    near(csfloat.medianTimeToSellHours, queueTimes(0, 48, 48)!.medianHours);
    assert.equal(record.referenceAskUsdCents, 999);
  });

  test('above the best ask: behind every unit priced at or below', () => {
    const at = liquidityRecord(input({ askPrice: 1000 }));
    const above = liquidityRecord(input({ askPrice: 1010 }));
    const row = (record: typeof at) => record.metrics.find((entry) => entry.market === 'csfloat')!;
    near(row(above).medianTimeToSellHours, queueTimes(4, 48, 48)!.medianHours);
    assert.ok(row(above).medianTimeToSellHours! > row(at).medianTimeToSellHours!);
  });
});

describe('best market and record fields', () => {
  test('the shortest median wins; top-level fields are its own', () => {
    const record = liquidityRecord(input({ askPrice: 999 }));
    assert.equal(record.bestMarketToList, 'csfloat');
    const best = record.metrics.find((row) => row.market === 'csfloat')!;
    assert.equal(record.medianTimeToSellHours, best.medianTimeToSellHours);
    assert.equal(record.p90TimeToSellHours, best.p90TimeToSellHours);
    assert.equal(record.salesPerDay, best.salesPerDay);
    assert.equal(record.activeListings, 4);
    assert.equal(record.liquidityBadge, 'EXTREMELY_LIQUID');
    assert.equal(record.calculatedAt, '2026-11-20T12:00:00.000Z');
  });

  test('market-wide: the whole supply (9 units) at the combined rate', () => {
    const record = liquidityRecord(input());
    assert.equal(record.marketWideListings, 9);
    assert.equal(record.marketsWithSales, 2);
    assert.equal(record.marketsWithDepth, 2);
    const combined = record.metrics.reduce((sum, row) => sum + (row.salesPerDay ?? 0), 0);
    near(record.marketWideSalesPerDay, combined);
    const clearing = queueTimes(8, combined, 60)!;
    assert.ok(Math.abs(record.marketWideMedianTimeToSellHours! - clearing.medianHours) < 0.02);
  });

  test('a market with no data is a row of nulls, noted no_sales_data', () => {
    const record = liquidityRecord(input());
    const dmarket = record.metrics.find((row) => row.market === 'dmarket')!;
    assert.deepEqual(dmarket, {
      market: 'dmarket',
      salesPerDay: null,
      activeListings: null,
      bestAskUsdCents: null,
      medianTimeToSellHours: null,
      p90TimeToSellHours: null,
      salesDataAgeMinutes: null,
      listingsDataAgeMinutes: null,
    });
    assert.deepEqual(record.notes, [
      'no_sales_data:skinport',
      'no_sales_data:marketcsgo',
      'no_sales_data:dmarket',
    ]);
    assert.equal(record.coverage, 'partial');
    assert.equal(record.confidence, 'HIGH');
  });

  test('metrics rows follow the liquidity markets, with data ages in whole minutes', () => {
    const record = liquidityRecord(input());
    assert.deepEqual(
      record.metrics.map((row) => row.market),
      [...LIQUIDITY_MARKETS.cs2],
    );
    const csfloat = record.metrics.find((row) => row.market === 'csfloat')!;
    assert.equal(csfloat.salesDataAgeMinutes, 10);
    assert.equal(csfloat.listingsDataAgeMinutes, 1);
    assert.equal(csfloat.bestAskUsdCents, 1000);
  });
});

describe('INSUFFICIENT_DATA, notes, confidence and coverage', () => {
  test('fewer than 3 sales in 30 days everywhere: every time field null', () => {
    const record = liquidityRecord(
      input({ sales: [sale('csfloat', NOW - DAY), sale('steamcommunity', NOW - 2 * DAY)] }),
    );
    assert.equal(record.liquidityBadge, 'INSUFFICIENT_DATA');
    assert.equal(record.confidence, 'CRITICAL');
    for (const field of [
      'medianTimeToSellHours',
      'p90TimeToSellHours',
      'bestMarketToList',
      'salesPerDay',
      'activeListings',
      'marketWideMedianTimeToSellHours',
      'marketWideP90TimeToSellHours',
    ] as const) {
      assert.equal(record[field], null, field);
    }
    for (const row of record.metrics) assert.equal(row.medianTimeToSellHours, null);
    assert.ok(record.notes.includes('thin_sales:csfloat'));
    assert.ok(record.notes.includes('sales_data_stale:steamcommunity'));
  });

  test('no sales at all: coverage none', () => {
    const record = liquidityRecord(input({ sales: [] }));
    assert.equal(record.coverage, 'none');
    assert.equal(record.marketWideSalesPerDay, null);
    assert.equal(record.liquidityBadge, 'INSUFFICIENT_DATA');
  });

  test('sales data behind the best market older than 6 h: capped, noted, MEDIUM', () => {
    const old: SaleRecord[] = evenSales('csfloat', 48, NOW - 7 * HOUR, 20 * MINUTE);
    const record = liquidityRecord(input({ sales: old, markets: ['csfloat'] }));
    assert.equal(record.liquidityBadge, 'VERY_LIQUID');
    assert.deepEqual(record.notes, ['sales_data_stale:csfloat']);
    assert.equal(record.confidence, 'MEDIUM');
    assert.equal(record.coverage, 'full');
  });

  test('thin sales on the best market: LOW', () => {
    const record = liquidityRecord(
      input({ sales: evenSales('csfloat', 5, NOW - HOUR, 2 * HOUR), markets: ['csfloat'] }),
    );
    assert.equal(record.confidence, 'LOW');
    assert.deepEqual(record.notes, ['thin_sales:csfloat']);
  });
});

test('one market in scope with plenty of fresh data: HIGH; one estimate among several: MEDIUM', () => {
  const alone = liquidityRecord(input({ markets: ['csfloat'] }));
  assert.equal(alone.confidence, 'HIGH');
  const several = liquidityRecord(input({ sales: evenSales('csfloat', 48, NOW, 30 * MINUTE) }));
  assert.equal(several.bestMarketToList, 'csfloat');
  assert.equal(several.confidence, 'MEDIUM');
});
