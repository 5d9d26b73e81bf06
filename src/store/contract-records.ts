/**
 * Contract cases for sales, listings, fetch records and retention. Registered by
 * priceStoreContract in contract.ts.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DAY, MINUTE } from '../domain/clock.ts';
import type { SaleRecord } from '../domain/quote.ts';
import {
  T0,
  bareListing,
  fetchRecord,
  listing,
  sale,
  side,
  sortListings,
  withStore,
} from './contract-fixtures.ts';
import type { PriceStoreFactory } from './contract-fixtures.ts';

function assertOldestFirst(sales: SaleRecord[]): void {
  sales.forEach((entry, index) => {
    const previous = sales[index - 1];
    if (previous) assert.ok(previous.soldAt <= entry.soldAt, 'sales are oldest first');
  });
}

function saleSet(sales: SaleRecord[]): string[] {
  return sales.map((entry) => JSON.stringify(entry)).sort();
}

export function saleCases(make: PriceStoreFactory): void {
  test('a sale fetched again is stored once, keeping its first ingestedAt', () =>
    withStore(make, async (store) => {
      const first = sale();
      await store.writeBatch({ sides: [], sales: [first, first], listings: [] });
      const again = sale({ ingestedAt: T0 + MINUTE });
      await store.writeBatch({ sides: [], sales: [again], listings: [] });
      assert.deepEqual(await store.loadSales('cs2', 0), [first]);
    }));

  test('sales differing in market, item, time, price or quantity are all kept', () =>
    withStore(make, async (store) => {
      const variants = [
        sale(),
        sale({ market: 'skinport' }),
        sale({ itemId: 'awp-asiimov-field-tested' }),
        sale({ soldAt: T0 + 1 }),
        sale({ price: 1200 }),
        sale({ quantity: 2 }),
      ];
      await store.writeBatch({ sides: [], sales: variants, listings: [] });
      assert.deepEqual(saleSet(await store.loadSales('cs2', 0)), saleSet(variants));
    }));

  test('loadSales returns soldAt >= since, oldest first', () =>
    withStore(make, async (store) => {
      const times = [T0 + 5 * MINUTE, T0 - DAY, T0, T0 + MINUTE, T0 - 1];
      const sales = times.map((soldAt, i) => sale({ soldAt, price: 1000 + i }));
      await store.writeBatch({ sides: [], sales, listings: [] });
      const since = await store.loadSales('cs2', T0);
      assert.deepEqual(
        since.map((entry) => entry.soldAt),
        [T0, T0 + MINUTE, T0 + 5 * MINUTE],
      );
      const all = await store.loadSales('cs2', 0);
      assert.equal(all.length, 5);
      assertOldestFirst(all);
      assert.deepEqual(await store.loadSales('cs2', T0 + 5 * MINUTE + 1), []);
    }));
}

export function listingCases(make: PriceStoreFactory): void {
  test('listings round-trip exactly, floats and stickers included', () =>
    withStore(make, async (store) => {
      const held = [listing(), bareListing(), listing({ listingId: 'L-2', floatValue: 1e-12 })];
      await store.writeBatch({ sides: [], sales: [], listings: held });
      assert.deepEqual(sortListings(await store.loadListings('cs2')), sortListings(held));
    }));

  test('a listing upserts by (game, market, listing id)', () =>
    withStore(make, async (store) => {
      await store.writeBatch({ sides: [], sales: [], listings: [listing()] });
      const repriced = bareListing({ listingId: 'L-1', price: 1100, fetchedAt: T0 + MINUTE });
      const otherMarket = listing({ market: 'skinport' });
      await store.writeBatch({ sides: [], sales: [], listings: [repriced, otherMarket] });
      const expected = sortListings([repriced, otherMarket]);
      assert.deepEqual(sortListings(await store.loadListings('cs2')), expected);
    }));

  test('pruneListings drops only that market, strictly older than the horizon', () =>
    withStore(make, async (store) => {
      const old = listing({ listingId: 'old', fetchedAt: T0 - MINUTE });
      const edge = listing({ listingId: 'edge', fetchedAt: T0 });
      const elsewhere = listing({ listingId: 'old', market: 'skinport', fetchedAt: T0 - DAY });
      await store.writeBatch({ sides: [], sales: [], listings: [old, edge, elsewhere] });
      assert.equal(await store.pruneListings('cs2', 'csfloat', T0), 1);
      assert.equal(await store.pruneListings('cs2', 'csfloat', T0), 0);
      assert.deepEqual(
        sortListings(await store.loadListings('cs2')),
        sortListings([edge, elsewhere]),
      );
    }));
}

export function fetchCases(make: PriceStoreFactory): void {
  test('fetch records round-trip, since-filtered and oldest first', () =>
    withStore(make, async (store) => {
      const late = fetchRecord({ startedAt: T0 + MINUTE, fetchedAt: T0 + MINUTE + 5 });
      const failed = fetchRecord({
        market: 'buff163',
        game: 'rust',
        ok: false,
        errorKind: 'retryable',
        ingestedAt: null,
        observationCount: 0,
        rejectedCount: 0,
        failure: 'rate_limited',
        detail: 'buff163 GET /api/market/goods: HTTP 429',
        unmappedCount: 0,
      });
      const early = fetchRecord({ startedAt: T0 - DAY, errorKind: 'permanent', ok: false });
      await store.recordFetches([late, failed]);
      await store.recordFetches([early]);
      await store.recordFetches([]);
      assert.deepEqual(await store.loadFetches(T0), [failed, late]);
      assert.deepEqual(await store.loadFetches(0), [early, failed, late]);
    }));
}

export function retentionCases(make: PriceStoreFactory): void {
  test('prune drops old sales (every game) and old fetch records, nothing else', () =>
    withStore(make, async (store) => {
      const keptSale = sale({ soldAt: T0 });
      const keptRust = sale({ game: 'rust', soldAt: T0 + 1 });
      await store.writeBatch({
        sides: [side({ fetchedAt: T0 - 10 * DAY })],
        sales: [
          sale({ soldAt: T0 - 1 }),
          keptSale,
          sale({ game: 'rust', soldAt: T0 - DAY }),
          keptRust,
        ],
        listings: [listing({ fetchedAt: T0 - 10 * DAY })],
      });
      const keptFetch = fetchRecord({ startedAt: T0 - DAY });
      await store.recordFetches([fetchRecord({ startedAt: T0 - DAY - 1 }), keptFetch]);
      await store.prune({ fetchesBeforeMs: T0 - DAY, salesBeforeMs: T0 });
      assert.deepEqual(await store.loadSales('cs2', 0), [keptSale]);
      assert.deepEqual(await store.loadSales('rust', 0), [keptRust]);
      assert.deepEqual(await store.loadFetches(0), [keptFetch]);
      assert.equal((await store.loadSides('cs2')).length, 1);
      assert.equal((await store.loadListings('cs2')).length, 1);
    }));
}
