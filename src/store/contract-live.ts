/**
 * Contract cases for the live-data tables every PriceStore keeps: the markets' sales
 * statistics (latest per item, market and window; an older fetch never replaces a newer one;
 * committed with the batch or not at all) and the stored exchange rates (replaced whole).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DAY, MINUTE } from '../domain/clock.ts';
import type { SalesStatsRecord } from '../domain/quote.ts';
import { T0, sale, withStore, type PriceStoreFactory } from './contract-fixtures.ts';

function stats(overrides: Partial<SalesStatsRecord> = {}): SalesStatsRecord {
  return {
    game: 'cs2',
    itemId: 'cs2_ak47_redline_ft',
    market: 'skinport',
    window: '24h',
    volume: 38,
    minPrice: 1_150,
    maxPrice: 1_420,
    avgPrice: 1_263,
    medianPrice: 1_250,
    fetchedAt: T0,
    ingestedAt: T0 + 50,
    originalCurrency: 'EUR',
    ...overrides,
  };
}

const batchOf = (salesStats: SalesStatsRecord[]) => ({
  sides: [],
  sales: [],
  listings: [],
  salesStats,
});

export function liveTableCases(make: PriceStoreFactory): void {
  test('sales statistics: the latest per item, market and window; nulls kept', () =>
    withStore(make, async (store) => {
      const empty = stats({
        window: '7d',
        volume: 0,
        minPrice: null,
        maxPrice: null,
        avgPrice: null,
        medianPrice: null,
      });
      const rust = stats({ game: 'rust', itemId: 'rust_tempered_ak47' });
      await store.writeBatch(batchOf([stats(), empty, rust]));
      const newer = stats({ volume: 41, fetchedAt: T0 + 5 * MINUTE });
      await store.writeBatch(batchOf([newer]));
      await store.writeBatch(batchOf([stats({ volume: 1, fetchedAt: T0 - MINUTE })]));
      const held = await store.loadSalesStats('cs2');
      const byWindow = Object.fromEntries(held.map((record) => [record.window, record]));
      assert.equal(held.length, 2);
      assert.deepEqual(byWindow['24h'], newer, 'newer replaces, older is ignored');
      assert.deepEqual(byWindow['7d'], empty);
      assert.deepEqual(await store.loadSalesStats('rust'), [rust]);
      assert.equal(await store.isEmpty(), false);
    }));

  test('sales statistics commit with their batch or not at all', () =>
    withStore(make, async (store) => {
      const broken = { ...sale(), soldAt: null as unknown as number };
      await assert.rejects(
        store.writeBatch({ sides: [], sales: [broken], listings: [], salesStats: [stats()] }),
      );
      assert.deepEqual(await store.loadSalesStats('cs2'), []);
    }));

  test('exchange rates: none until saved, then the last table saved, whole', () =>
    withStore(make, async (store) => {
      assert.equal(await store.loadFxRates(), null);
      await store.saveFxRates({
        asOf: T0 - DAY,
        source: 'ECB euro reference rates of 2026-10-31',
        usdMicroPerUnit: { USD: 1_000_000, EUR: 1_157_100, CNY: 140_575, GBP: 1_310_000 },
      });
      const latest = {
        asOf: T0,
        source: 'ECB euro reference rates of 2026-11-01',
        usdMicroPerUnit: { CNY: 140_601, EUR: 1_158_000, USD: 1_000_000 },
      };
      await store.saveFxRates(latest);
      assert.deepEqual(await store.loadFxRates(), latest);
    }));
}
