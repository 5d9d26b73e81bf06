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

/**
 * Bins in ascending order, flat: [bin, count, sum, bin, count, sum, ...] (one array per
 * sketch instead of an object per bin: a 180-day read decodes ~100k bins).
 */
export type Sketch = number[];

const STRIDE = 3;

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

/** Index of the first triple whose bin is above `bin`, scanning from the end. */
function place(sketch: Sketch, bin: number): number {
  let index = sketch.length;
  while (index > 0 && sketch[index - STRIDE]! > bin) index -= STRIDE;
  return index;
}

function addBin(sketch: Sketch, bin: number, count: number, sum: number): void {
  const index = place(sketch, bin);
  if (index > 0 && sketch[index - STRIDE] === bin) {
    sketch[index - 2]! += count;
    sketch[index - 1]! += sum;
  } else if (index === sketch.length) sketch.push(bin, count, sum);
  else sketch.splice(index, 0, bin, count, sum);
}

/** Adds `count` copies of `price` (mutates). */
export function sketchAdd(sketch: Sketch, price: Cents, count = 1): void {
  addBin(sketch, binOf(price), count, price * count);
}

/** Adds every bin of `from` into `into` (mutates `into`). */
export function sketchMerge(into: Sketch, from: Sketch): void {
  for (let index = 0; index < from.length; index += STRIDE) {
    addBin(into, from[index]!, from[index + 1]!, from[index + 2]!);
  }
}

export function sketchCopy(sketch: Sketch): Sketch {
  return sketch.slice();
}

/** The mean of the bin at triple `index`, half up. */
function representative(sketch: Sketch, index: number): Cents {
  const count = sketch[index + 1]!;
  return Math.floor((2 * sketch[index + 2]! + count) / (2 * count));
}

function valueAtRank(sketch: Sketch, rank: number): Cents {
  let seen = 0;
  for (let index = 0; index < sketch.length; index += STRIDE) {
    seen += sketch[index + 1]!;
    if (seen >= rank) return representative(sketch, index);
  }
  throw new Error(`rank ${rank} beyond the sketch's ${seen} values`);
}

/** The approximate median (see the module comment); null for an empty sketch. */
export function sketchMedian(sketch: Sketch): Cents | null {
  let total = 0;
  for (let index = 1; index < sketch.length; index += STRIDE) total += sketch[index]!;
  if (total === 0) return null;
  const low = valueAtRank(sketch, Math.floor((total + 1) / 2));
  const high = valueAtRank(sketch, Math.floor(total / 2) + 1);
  return Math.floor((low + high + 1) / 2);
}
