/**
 * The median sketch of a rollup bucket: a sparse log histogram of integer cent prices that
 * merges exactly (bins add), so an hourly median comes from the 10-minute sketches alone.
 *
 * Bins: every price below 256 cents has its own bin (exact). From 256 up, each power of two is
 * split into 128 equal bins, so a bin is at most 1/128 (0.79%) of its prices wide. Each bin
 * keeps its count and the sum of its prices; a bin's representative value is the mean of its
 * prices (half up). The median is the representative of the bin holding the middle rank (the
 * two middle ranks averaged, half up, for an even count): exact whenever the prices sharing
 * that bin are equal, otherwise within the bin's width. Integer arithmetic only.
 */
import type { Cents } from '../domain/money.ts';

export interface SketchBin {
  bin: number;
  count: number;
  sum: number;
}

/** Bins in ascending order. */
export type Sketch = SketchBin[];

const EXACT_BELOW = 256;
const SUB_BINS = 128;
const SUB_BITS = 7;
const POW2 = Array.from({ length: 64 }, (_, exponent) => 2 ** exponent);

function bitLength(value: number): number {
  if (value < 2 ** 31) return 32 - Math.clz32(value);
  let exponent = Math.floor(Math.log2(value));
  while (2 ** exponent > value) exponent -= 1;
  while (2 ** (exponent + 1) <= value) exponent += 1;
  return exponent + 1;
}

export function binOf(price: Cents): number {
  if (price < EXACT_BELOW) return price;
  const exponent = bitLength(price) - 1;
  const sub = Math.floor(price / POW2[exponent - SUB_BITS]!) - SUB_BINS;
  return EXACT_BELOW + (exponent - 8) * SUB_BINS + sub;
}

/** The smallest price in a bin. */
export function binLow(bin: number): Cents {
  if (bin < EXACT_BELOW) return bin;
  const offset = bin - EXACT_BELOW;
  const exponent = 8 + Math.floor(offset / SUB_BINS);
  return (SUB_BINS + (offset % SUB_BINS)) * POW2[exponent - SUB_BITS]!;
}

function place(sketch: Sketch, bin: number): number {
  let index = sketch.length;
  while (index > 0 && sketch[index - 1]!.bin > bin) index -= 1;
  return index;
}

/** Adds `count` copies of `price` (mutates). */
export function sketchAdd(sketch: Sketch, price: Cents, count = 1): void {
  const bin = binOf(price);
  const index = place(sketch, bin);
  const held = sketch[index - 1];
  if (held && held.bin === bin) {
    held.count += count;
    held.sum += price * count;
  } else sketch.splice(index, 0, { bin, count, sum: price * count });
}

/** Adds every bin of `from` into `into` (mutates `into`). */
export function sketchMerge(into: Sketch, from: Sketch): void {
  for (const entry of from) {
    const index = place(into, entry.bin);
    const held = into[index - 1];
    if (held && held.bin === entry.bin) {
      held.count += entry.count;
      held.sum += entry.sum;
    } else into.splice(index, 0, { ...entry });
  }
}

export function sketchCopy(sketch: Sketch): Sketch {
  return sketch.map((entry) => ({ ...entry }));
}

function representative(entry: SketchBin): Cents {
  return Math.floor((2 * entry.sum + entry.count) / (2 * entry.count));
}

function valueAtRank(sketch: Sketch, rank: number): Cents {
  let seen = 0;
  for (const entry of sketch) {
    seen += entry.count;
    if (seen >= rank) return representative(entry);
  }
  throw new Error(`rank ${rank} beyond the sketch's ${seen} values`);
}

/** The approximate median (see the module comment); null for an empty sketch. */
export function sketchMedian(sketch: Sketch): Cents | null {
  let total = 0;
  for (const entry of sketch) total += entry.count;
  if (total === 0) return null;
  const low = valueAtRank(sketch, Math.floor((total + 1) / 2));
  const high = valueAtRank(sketch, Math.floor(total / 2) + 1);
  return Math.floor((low + high + 1) / 2);
}
