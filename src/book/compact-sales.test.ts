import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import v8 from 'node:v8';
import vm from 'node:vm';
import fc from 'fast-check';
import { MARKET_IDS } from '../domain/markets.ts';
import type { IngestBatch, SaleRecord } from '../domain/quote.ts';
import { compactSale, compactSales, StringPool } from './compact-sales.ts';

const saleArbitrary: fc.Arbitrary<SaleRecord> = fc
  .record({
    game: fc.constantFrom('cs2' as const, 'rust' as const),
    itemId: fc.string({ minLength: 1, maxLength: 40 }),
    market: fc.constantFrom(...MARKET_IDS),
    price: fc.integer({ min: 1, max: 10_000_000 }),
    quantity: fc.integer({ min: 1, max: 100 }),
    soldAt: fc.integer({ min: 0, max: 2 ** 45 }),
    ingestedAt: fc.integer({ min: 0, max: 2 ** 45 }),
    originalCurrency: fc.constantFrom('USD', 'CNY', 'EUR'),
  })
  .map((record) => ({ ...record }));

function sale(index: number): SaleRecord {
  return {
    game: 'cs2',
    itemId: `AK-47 | Redline (Field-Tested) #${index % 500}`,
    market: MARKET_IDS[index % MARKET_IDS.length]!,
    price: 1_000 + index,
    quantity: 1 + (index % 3),
    soldAt: 1_795_000_000_000 + index * 1_000,
    ingestedAt: 1_795_000_000_500 + index * 1_000,
    originalCurrency: index % 2 === 0 ? 'USD' : 'CNY',
  };
}

/** Heap in use after full collections (gc exposed for this isolate only). */
function liveHeap(): number {
  v8.setFlagsFromString('--expose-gc');
  const gc = vm.runInNewContext('gc') as () => void;
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

describe('compactSales', () => {
  test('keeps every field of every sale', () => {
    fc.assert(
      fc.property(fc.array(saleArbitrary, { maxLength: 30 }), (sales) => {
        const pool = new StringPool();
        const batch: IngestBatch = { sides: [], sales, listings: [] };
        assert.deepEqual(compactSales(batch, pool), batch);
        for (const [index, kept] of compactSales(batch, pool).sales.entries()) {
          assert.deepEqual(Object.keys(kept).sort(), Object.keys(sales[index]!).sort());
        }
      }),
    );
  });

  test('one copy per distinct string, however many sales repeat it', () => {
    const pool = new StringPool();
    for (let index = 0; index < 2_000; index += 1) compactSale(sale(index), pool);
    // 500 item names, every market, two currencies, one game
    assert.equal(pool.size, 500 + MARKET_IDS.length + 2 + 1);
  });

  test('a batch without sales passes through; sides and listings are not copied', () => {
    const pool = new StringPool();
    const empty: IngestBatch = { sides: [], sales: [], listings: [] };
    assert.equal(compactSales(empty, pool), empty);
    const batch: IngestBatch = { sides: [], sales: [sale(1)], listings: [] };
    const compacted = compactSales(batch, pool);
    assert.equal(compacted.sides, batch.sides);
    assert.equal(compacted.listings, batch.listings);
  });

  test('cloned sales take at most half the memory once compacted', () => {
    const messages = Array.from({ length: 25 }, (_, message) =>
      v8.serialize(Array.from({ length: 2_000 }, (_, index) => sale(message * 2_000 + index))),
    );
    const before = liveHeap();
    const cloned = messages.map((bytes) => v8.deserialize(bytes) as SaleRecord[]);
    const clonedBytes = liveHeap() - before;
    const pool = new StringPool();
    const compacted = cloned.map((sales) => sales.map((one) => compactSale(one, pool)));
    cloned.length = 0;
    const compactedBytes = liveHeap() - before;
    assert.equal(compacted.flat().length, 50_000);
    assert.ok(
      compactedBytes < 0.5 * clonedBytes,
      `compacted ${compactedBytes} bytes vs cloned ${clonedBytes}`,
    );
  });
});
