import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { DAY } from '../domain/clock.ts';
import type { MarketId } from '../domain/markets.ts';
import { MemoryRollups } from '../pricing/rollup-memory.ts';
import { addPrice } from '../pricing/rollups.ts';
import { side } from '../pricing/snapshot-fixtures.ts';
import {
  decodeSales,
  decodeSide,
  encodeSales,
  encodeSide,
  RollupCodecError,
} from './rollup-codec.ts';

const T = Date.parse('2026-11-01T00:00:00Z');
const MARKETS: MarketId[] = ['steamcommunity', 'skinport', 'csfloat', 'tradeit-trade'];

describe('rollup codec', () => {
  test('any side and sales section round-trips exactly', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            kind: fc.constantFrom('ask', 'bid'),
            market: fc.constantFrom(...MARKETS),
            price: fc.integer({ min: 0, max: 2 ** 40 }),
            size: fc.nat(100_000),
            offset: fc.nat(DAY - 1),
          }),
          { minLength: 1, maxLength: 40 },
        ),
        (observations) => {
          const memory = new MemoryRollups();
          for (const entry of [...observations].sort((a, b) => a.offset - b.offset)) {
            const at = T + entry.offset;
            const spec = {
              market: entry.market,
              prices: [entry.price],
              fetchedAt: at,
              quantity: 1 + (entry.size % 7),
              listingCount: entry.size,
            };
            memory.record([side(entry.kind, spec)]);
          }
          for (const market of [null, ...MARKETS]) {
            for (const tier of ['10m', '1d'] as const) {
              for (const row of memory.read(
                { game: 'cs2', itemId: 'item-1', market },
                tier,
                0,
                T + DAY,
              )) {
                for (const kind of ['ask', 'bid'] as const) {
                  const part = row[kind];
                  if (!part) continue;
                  const bytes = encodeSide(kind, part, row.start);
                  assert.deepEqual(decodeSide(kind, bytes, row.start), part);
                }
              }
            }
          }
          const sales = observations.reduce(
            (tally, entry) => addPrice(tally, entry.price, 1 + (entry.size % 3)),
            addPrice(null, 7),
          );
          assert.deepEqual(decodeSales(encodeSales(sales)), sales);
        },
      ),
      { numRuns: 200 },
    );
  });

  test('refuses fractional or negative values and rejects damaged bytes', () => {
    assert.throws(() => encodeSales(addPrice(null, 12.5)), RollupCodecError);
    assert.throws(() => encodeSales(addPrice(null, -1)), RollupCodecError);
    const bytes = encodeSales(addPrice(addPrice(null, 1000), 2000));
    assert.throws(() => decodeSales(bytes.subarray(0, bytes.length - 1)), /truncated/);
    assert.throws(() => decodeSales(Buffer.concat([bytes, Buffer.from([0])])), /trailing/);
  });
});
