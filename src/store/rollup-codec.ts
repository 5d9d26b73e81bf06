/**
 * A compact binary form of a rollup bucket's sections (asks, bids, sales), shared by every
 * HistoryStore implementation. All fields are unsigned LEB128 varints; signed ones zigzag.
 *
 * Side section: min, max − min, sum − n·min, zigzag(lastAt − bucket start) + 1 (0 = none),
 *   sketch, then the market tallies: count, and per tally market code (market-codes.ts),
 *   n, size and, for bids only, quantity and zigzag(top − min). The observation count n is
 *   the tallies' sum.
 * Sales section: n, min, max − min, sum − n·min, sketch.
 * Sketch: bin count, then per bin: bin − previous bin (the first relative to the min's bin),
 *   count, sum − count × the bin's lowest price. When min = max the sketch is implied (one bin
 *   of n × min) and stored as a bin count of 0.
 * A one-observation ask section takes about 14 bytes. Anything that is not a non-negative safe
 * integer is refused, so no float reaches storage. Reads keep their position in a SectionReader
 * of their own, never in module state.
 */
import { marketOfCode } from '../domain/market-codes.ts';
import type { Side } from '../domain/observation.ts';
import {
  TALLY,
  TALLY_STRIDE,
  type MarketTallies,
  type PriceTally,
  type SidePartial,
} from '../pricing/rollups.ts';
import { binLow, binOf, type Sketch } from '../pricing/rollup-sketch.ts';
import { VarintWriter } from './varint-writer.ts';

export class RollupCodecError extends Error {
  override readonly name = 'RollupCodecError';
}

const HIGH_BIT = 128;
/** Where sections are encoded before stable() copies them out. */
const scratch = new VarintWriter(4096);

export function zigzag(value: number): number {
  return value >= 0 ? value * 2 : -value * 2 - 1;
}

export function unzigzag(value: number): number {
  return value % 2 === 0 ? value / 2 : -(value + 1) / 2;
}

/** Refuses what the codec cannot store: anything but a non-negative safe integer. */
export function requireStorable(value: number): void {
  if (value >>> 0 !== value && (!Number.isSafeInteger(value) || value < 0)) {
    throw new RollupCodecError(`rollup field must be a non-negative safe integer, got ${value}`);
  }
}

function put(value: number): void {
  requireStorable(value);
  scratch.put(value);
}

function putPrices(tally: PriceTally, n: number): void {
  put(tally.min);
  put(tally.max - tally.min);
  put(tally.sum - n * tally.min);
}

function putSketch(sketch: Sketch, min: number, max: number): void {
  if (min === max) {
    put(0);
    return;
  }
  put(sketch.length / 3);
  let previous = binOf(min);
  for (let index = 0; index < sketch.length; index += 3) {
    const bin = sketch[index]!;
    const count = sketch[index + 1]!;
    put(bin - previous);
    put(count);
    put(sketch[index + 2]! - count * binLow(bin));
    previous = bin;
  }
}

function writeSide(side: Side, partial: SidePartial, bucketStart: number): void {
  const { prices } = partial;
  putPrices(prices, prices.n);
  put(partial.lastAt === null ? 0 : zigzag(partial.lastAt - bucketStart) + 1);
  putSketch(prices.sketch, prices.min, prices.max);
  const tallies = partial.markets;
  put(tallies.length / TALLY_STRIDE);
  for (let index = 0; index < tallies.length; index += TALLY_STRIDE) {
    put(tallies[index]!);
    put(tallies[index + TALLY.n]!);
    put(tallies[index + TALLY.size]!);
    if (side === 'ask') continue;
    put(tallies[index + TALLY.quantity]!);
    put(zigzag(tallies[index + TALLY.top]! - prices.min));
  }
}

function writeSales(tally: PriceTally): void {
  put(tally.n);
  putPrices(tally, tally.n);
  putSketch(tally.sketch, tally.min, tally.max);
}

/** Encodes after what is already in the scratch buffer and returns a copy. */
function stable(write: () => void): Buffer {
  const start = scratch.length;
  try {
    write();
    return Buffer.from(scratch.result().subarray(start));
  } finally {
    scratch.length = start;
  }
}

export function encodeSide(side: Side, partial: SidePartial, bucketStart: number): Buffer {
  return stable(() => writeSide(side, partial, bucketStart));
}

export function encodeSales(tally: PriceTally): Buffer {
  return stable(() => writeSales(tally));
}

function fillConstant(sketch: Sketch, n: number, min: number): void {
  if (sketch.length === 3 && sketch[1] === 0) {
    sketch[1] = n;
    sketch[2] = n * min;
  }
}

/**
 * A cursor over sections stored back to back (side, side, sales, in order). Each reader holds
 * its own position, so two reads (or a read inside a visitor) never share one.
 */
export class SectionReader {
  private input: Uint8Array = new Uint8Array(0);
  private position = 0;

  /** Starts reading `bytes` from offset `at`. */
  begin(bytes: Uint8Array, at = 0): this {
    this.input = bytes;
    this.position = at;
    return this;
  }

  /** The bytes being read. */
  bytes(): Uint8Array {
    return this.input;
  }

  /** The offset just past the sections read so far. */
  offset(): number {
    return this.position;
  }

  /** Refuses bytes left after the last section. */
  finished(what: string): void {
    if (this.position < this.input.length)
      throw new RollupCodecError(`trailing bytes in rollup ${what} data`);
  }

  /**
   * The side section at the current position. With `into`, its arrays and objects are refilled
   * instead of new ones made (a long scan decodes every bucket into the same one; the visitor
   * must not keep it). Without `withSketch` the sketch is read past and left empty, so its
   * median is null: for sections a read needs no median of.
   */
  side(side: Side, bucketStart: number, into?: SidePartial, withSketch = true): SidePartial {
    const min = this.next();
    const max = min + this.next();
    const sumOverMin = this.next();
    const lastAtCode = this.next();
    const sketch = withSketch
      ? this.sketch(min, into?.prices.sketch)
      : this.skipSketch(into?.prices.sketch);
    const markets: MarketTallies = into?.markets ?? [];
    markets.length = this.next() * TALLY_STRIDE;
    let n = 0;
    for (let at = 0; at < markets.length; at += TALLY_STRIDE) {
      n += this.tally(side, min, markets, at);
    }
    fillConstant(sketch, n, min);
    const lastAt = lastAtCode === 0 ? null : bucketStart + unzigzag(lastAtCode - 1);
    if (!into)
      return { prices: { n, sum: sumOverMin + n * min, min, max, sketch }, markets, lastAt };
    const prices = into.prices;
    prices.n = n;
    prices.sum = sumOverMin + n * min;
    prices.min = min;
    prices.max = max;
    into.lastAt = lastAt;
    return into;
  }

  /** Reads past a side section without decoding it (a read that did not ask for it). */
  skipSide(side: Side): void {
    for (let field = 0; field < 4; field += 1) this.next();
    const bins = this.next() * 3;
    for (let index = 0; index < bins; index += 1) this.next();
    const fields = this.next() * (side === 'ask' ? 3 : 5);
    for (let index = 0; index < fields; index += 1) this.next();
  }

  /** The sales section at the current position (refilling `into` when given). */
  sales(into?: PriceTally): PriceTally {
    const n = this.next();
    const min = this.next();
    const max = min + this.next();
    const sum = this.next() + n * min;
    const sketch = this.sketch(min, into?.sketch);
    fillConstant(sketch, n, min);
    return tallyInto(into, n, sum, min, max, sketch);
  }

  /** Reads the next unsigned LEB128 varint. */
  next(): number {
    const input = this.input;
    const first = input[this.position];
    if (first !== undefined && first < HIGH_BIT) {
      this.position += 1;
      return first;
    }
    let value = 0;
    let factor = 1;
    for (;;) {
      const byte = input[this.position++];
      if (byte === undefined) throw new RollupCodecError('truncated rollup data');
      value += (byte & 0x7f) * factor;
      if (byte < HIGH_BIT) return value;
      factor *= HIGH_BIT;
    }
  }

  /**
   * Reads a sketch at the current position. A bucket whose prices are all equal stores no
   * bins: its sketch is one bin of n × min (n is filled in by the caller once known).
   */
  private sketch(min: number, out: Sketch = []): Sketch {
    const count = this.next();
    if (count === 0) {
      out.length = 3;
      out[0] = binOf(min);
      out[1] = 0;
      out[2] = 0;
      return out;
    }
    out.length = count * 3;
    let bin = binOf(min);
    for (let index = 0; index < out.length; index += 3) {
      bin += this.next();
      const entries = this.next();
      out[index] = bin;
      out[index + 1] = entries;
      out[index + 2] = this.next() + entries * binLow(bin);
    }
    return out;
  }

  /** Reads past a sketch, leaving `out` empty (for reads that need no median). */
  private skipSketch(out: Sketch = []): Sketch {
    const values = this.next() * 3;
    for (let index = 0; index < values; index += 1) this.next();
    out.length = 0;
    return out;
  }

  /** Reads one tally into `out` at `at`; returns its observation count. */
  private tally(side: Side, min: number, out: MarketTallies, at: number): number {
    const market = this.next();
    if (marketOfCode(market) === undefined)
      throw new RollupCodecError('unknown market code in rollup data');
    const n = this.next();
    out[at] = market;
    out[at + TALLY.n] = n;
    out[at + TALLY.size] = this.next();
    out[at + TALLY.quantity] = side === 'ask' ? 0 : this.next();
    out[at + TALLY.top] = side === 'ask' ? 0 : min + unzigzag(this.next());
    return n;
  }
}

/** Decodes a side section (see SectionReader.side). */
export function decodeSide(
  side: Side,
  bytes: Uint8Array,
  bucketStart: number,
  into?: SidePartial,
): SidePartial {
  const reader = new SectionReader().begin(bytes);
  const partial = reader.side(side, bucketStart, into);
  reader.finished('side');
  return partial;
}

/** Decodes a sales section (refilling `into` when given, as decodeSide does). */
export function decodeSales(bytes: Uint8Array, into?: PriceTally): PriceTally {
  const reader = new SectionReader().begin(bytes);
  const tally = reader.sales(into);
  reader.finished('sales');
  return tally;
}

/** A sales tally as read: `into` refilled when given (a read reuses one), else a new one. */
export function tallyInto(
  into: PriceTally | undefined,
  n: number,
  sum: number,
  min: number,
  max: number,
  sketch: Sketch,
): PriceTally {
  if (!into) return { n, sum, min, max, sketch };
  into.n = n;
  into.sum = sum;
  into.min = min;
  into.max = max;
  return into;
}
