import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { DAY } from '../domain/clock.ts';
import type { SaleRecord } from '../domain/quote.ts';
import { ask, marketSides } from '../pricing/snapshot-fixtures.ts';
import { badgeForHours } from './classify.ts';
import { liquidityRecord } from './estimate.ts';
import { LIQUIDITY_MARKETS } from './markets.ts';
import { sale } from './test-fixtures.ts';

const NOW = Date.parse('2026-11-20T12:00:00Z');
const markets = LIQUIDITY_MARKETS.cs2;

const marketData = fc.record({
  prices: fc.array(fc.integer({ min: 1, max: 5000 }), { maxLength: 5 }),
  quantity: fc.integer({ min: 1, max: 5 }),
  saleAges: fc.array(fc.integer({ min: 0, max: 40 * DAY }), { maxLength: 60 }),
});

test('property: record invariants over random ladders and sales', () => {
  fc.assert(
    fc.property(
      fc.array(marketData, { minLength: 5, maxLength: 5 }),
      fc.option(fc.integer({ min: 1, max: 6000 }), { nil: null }),
      (perMarket, askPrice) => {
        const sides = perMarket.flatMap((data, index) =>
          data.prices.length === 0
            ? []
            : [
                ask({
                  market: markets[index]!,
                  prices: [...new Set(data.prices)].sort((a, b) => a - b),
                  quantity: data.quantity,
                  fetchedAt: NOW,
                }),
              ],
        );
        const sales: SaleRecord[] = perMarket
          .flatMap((data, index) => data.saleAges.map((age) => sale(markets[index]!, NOW - age)))
          .sort((a, b) => a.soldAt - b.soldAt);
        const record = liquidityRecord({
          item: { id: 'item-1', marketHashName: 'x' },
          markets,
          sides: marketSides(sides),
          sales,
          salesStats: [],
          askPrice,
          now: NOW,
        });
        const medians = record.metrics
          .map((row) => row.medianTimeToSellHours)
          .filter((hours): hours is number => hours !== null);
        for (const row of record.metrics) {
          if (row.medianTimeToSellHours !== null) {
            assert.ok(row.p90TimeToSellHours! >= row.medianTimeToSellHours);
          }
        }
        if (medians.length === 0) {
          assert.equal(record.liquidityBadge, 'INSUFFICIENT_DATA');
          assert.equal(record.medianTimeToSellHours, null);
          assert.equal(record.bestMarketToList, null);
          return;
        }
        assert.equal(record.medianTimeToSellHours, Math.min(...medians));
        const best = record.metrics.find((row) => row.market === record.bestMarketToList)!;
        assert.equal(best.medianTimeToSellHours, record.medianTimeToSellHours);
        const uncapped = badgeForHours(record.medianTimeToSellHours!);
        assert.ok(
          record.liquidityBadge === uncapped ||
            ['VERY_LIQUID', 'LIQUID'].includes(record.liquidityBadge),
          `${record.liquidityBadge} vs ${uncapped}`,
        );
        if (askPrice !== null) assert.equal(record.referenceAskUsdCents, askPrice);
      },
    ),
    { numRuns: 300 },
  );
});
