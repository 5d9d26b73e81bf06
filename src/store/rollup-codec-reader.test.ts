import { test } from 'node:test';
import assert from 'node:assert/strict';
import { marketCode } from '../domain/market-codes.ts';
import { sketchAdd } from '../pricing/rollup-sketch.ts';
import type { SidePartial } from '../pricing/rollups.ts';
import { encodeSales, encodeSide, RollupCodecError, SectionReader } from './rollup-codec.ts';

const T = Date.parse('2026-11-01T00:00:00Z');

function askPartial(price: number, market: 'skinport' | 'mannco-store'): SidePartial {
  return {
    prices: { n: 1, sum: price, min: price, max: price, sketch: [] },
    markets: [marketCode(market), 1, 3, 0, 0],
    lastAt: null,
  };
}

test('two readers over different bytes keep their own positions (no shared read state)', () => {
  const first = Buffer.concat([
    encodeSide('ask', askPartial(1500, 'skinport'), T),
    encodeSales({ n: 2, sum: 3000, min: 1400, max: 1600, sketch: [] }),
  ]);
  const second = encodeSide('ask', askPartial(99_000, 'mannco-store'), T);
  const a = new SectionReader().begin(first);
  const b = new SectionReader().begin(second);
  const sideA = a.side('ask', T);
  const sideB = b.side('ask', T);
  assert.equal(a.sales().n, 2, 'reader a continues after b read');
  a.finished('row');
  b.finished('side');
  assert.equal(sideA.prices.min, 1500);
  assert.equal(sideA.markets[0], marketCode('skinport'));
  assert.equal(sideB.prices.min, 99_000);
  assert.equal(sideB.markets[0], 20, 'mannco-store is stored as its frozen code');
  assert.equal(a.offset(), first.length);
});

test('a tally with a code no market has is refused', () => {
  const bytes = encodeSide('ask', askPartial(1500, 'skinport'), T);
  const code = bytes.indexOf(marketCode('skinport'), 5);
  const unknown = Buffer.from(bytes);
  unknown[code] = 99;
  assert.throws(() => new SectionReader().begin(unknown).side('ask', T), RollupCodecError);
});

test('skipping a side section lands where reading it would', () => {
  const sketch: number[] = [];
  sketchAdd(sketch, 1200);
  sketchAdd(sketch, 1300);
  const bid: SidePartial = {
    prices: { n: 2, sum: 2500, min: 1200, max: 1300, sketch },
    markets: [marketCode('skinport'), 2, 5, 7, 1300],
    lastAt: T + 1000,
  };
  const bytes = Buffer.concat([
    encodeSide('ask', askPartial(1500, 'skinport'), T),
    encodeSide('bid', bid, T),
    encodeSales({ n: 1, sum: 1400, min: 1400, max: 1400, sketch: [] }),
  ]);
  const read = new SectionReader().begin(bytes);
  read.side('ask', T);
  assert.deepEqual(read.side('bid', T).prices.sketch, sketch);
  const skip = new SectionReader().begin(bytes);
  skip.skipSide('ask');
  skip.skipSide('bid');
  assert.equal(skip.offset(), read.offset());
  assert.equal(skip.sales().min, 1400);
  skip.finished('row');
});
