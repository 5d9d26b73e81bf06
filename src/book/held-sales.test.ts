import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import v8 from 'node:v8';
import vm from 'node:vm';
import fc from 'fast-check';
import { MARKET_IDS } from '../domain/markets.ts';
import type { SaleRecord } from '../domain/quote.ts';
import { HeldSales } from './held-sales.ts';

const RETENTION_MS = 50_000;

const saleArbitrary: fc.Arbitrary<SaleRecord> = fc
  .record({
    game: fc.constant('cs2' as const),
    itemId: fc.constantFrom('a', 'b', 'c'),
    market: fc.constantFrom(...MARKET_IDS.slice(0, 3)),
    price: fc.integer({ min: 1, max: 10_000_000 }),
    quantity: fc.integer({ min: 1, max: 3 }),
    soldAt: fc.integer({ min: 0, max: 120_000 }).map((at) => 1_795_000_000_000 + at),
    ingestedAt: fc.integer({ min: 0, max: 2 ** 45 }),
    originalCurrency: fc.constantFrom('USD', 'CNY', 'EUR'),
  })
  .map((record) => ({ ...record }));

/** The list the book kept before: inserted by time after equal times, repeats and old dropped. */
function reference(sales: readonly SaleRecord[]): Map<string, SaleRecord[]> {
  const lists = new Map<string, SaleRecord[]>();
  for (const sale of sales) {
    const list = lists.get(sale.itemId) ?? lists.set(sale.itemId, []).get(sale.itemId)!;
    let index = list.length;
    while (index > 0 && list[index - 1]!.soldAt > sale.soldAt) index -= 1;
    const repeat = list
      .slice(0, index)
      .some(
        (held) =>
          held.soldAt === sale.soldAt &&
          held.market === sale.market &&
          held.price === sale.price &&
          held.quantity === sale.quantity,
      );
    if (repeat) continue;
    list.splice(index, 0, sale);
    const horizon = list[list.length - 1]!.soldAt - RETENTION_MS;
    while (list.length > 0 && list[0]!.soldAt < horizon) list.shift();
  }
  return lists;
}

function liveHeap() {
  v8.setFlagsFromString('--expose-gc');
  const gc = vm.runInNewContext('gc') as () => void;
  gc();
  gc();
  const { heapUsed, arrayBuffers } = process.memoryUsage();
  return { heapUsed, arrayBuffers };
}

describe('HeldSales', () => {
  test('holds what the record list held: time order, repeats once, the retention window', () => {
    fc.assert(
      fc.property(fc.array(saleArbitrary, { maxLength: 60 }), (sales) => {
        const held = new HeldSales('cs2', RETENTION_MS);
        for (const sale of sales) held.put(sale);
        const expected = reference(sales);
        for (const itemId of ['a', 'b', 'c']) {
          assert.deepEqual(held.records(itemId), expected.get(itemId) ?? []);
        }
      }),
    );
  });

  test('a repeat reports false and changes nothing', () => {
    const held = new HeldSales('rust', RETENTION_MS);
    const sale: SaleRecord = {
      game: 'rust',
      itemId: 'x',
      market: MARKET_IDS[0]!,
      price: 2_147_483_648_000,
      quantity: 1,
      soldAt: 1_795_000_000_000,
      ingestedAt: 1_795_000_000_500,
      originalCurrency: 'USD',
    };
    assert.equal(held.put(sale), true);
    assert.equal(held.put({ ...sale, ingestedAt: 1 }), false);
    assert.deepEqual(held.records('x'), [sale]);
    assert.deepEqual(held.records('unknown'), []);
  });

  test('50,000 held sales: a few bytes of heap each, under 120 bytes in all', () => {
    const before = liveHeap();
    const held = new HeldSales('cs2', 2 ** 50);
    for (let index = 0; index < 50_000; index += 1) {
      held.put({
        game: 'cs2',
        itemId: `AK-47 | Redline (Field-Tested) #${index % 500}`,
        market: MARKET_IDS[index % MARKET_IDS.length]!,
        price: 1_000 + index,
        quantity: 1 + (index % 3),
        soldAt: 1_795_000_000_000 + index * 1_000,
        ingestedAt: 1_795_000_000_500 + index * 1_000,
        originalCurrency: index % 2 === 0 ? 'USD' : 'CNY',
      });
    }
    const after = liveHeap();
    const heap = (after.heapUsed - before.heapUsed) / 50_000;
    const buffers = (after.arrayBuffers - before.arrayBuffers) / 50_000;
    assert.equal(held.records('AK-47 | Redline (Field-Tested) #7').length, 100);
    assert.ok(heap < 10, `${heap.toFixed(1)} bytes of heap a sale`);
    assert.ok(heap + buffers < 120, `${(heap + buffers).toFixed(1)} bytes a sale`);
  });
});
