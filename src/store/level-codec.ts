/**
 * A compact binary form of a side's price levels, shared by every PriceStore implementation.
 *
 * Layout: one format byte (1), then per level three unsigned LEB128 varints:
 *   zigzag(price - previous price)   (previous price starts at 0; ladders are sorted, so
 *                                     deltas are small and either sign is allowed)
 *   quantity
 *   orders + 1, or 0 for null
 * A 1-level side takes about 6 bytes, a 50-level ladder about 2-4 bytes per level (JSON text
 * `[[price,qty,orders],...]` takes 14-17 bytes per level). Encoding rejects anything that is
 * not a non-negative integer (prices up to MAX_LEVEL_PRICE), so a float never reaches storage.
 */
import type { Level } from '../domain/quote.ts';
import { unzigzag, zigzag } from './rollup-codec.ts';

const FORMAT_V1 = 1;
/** Largest price the codec takes (2^52 - 1 cents): keeps every zigzag delta a safe integer. */
export const MAX_LEVEL_PRICE = 2 ** 52 - 1;
const MAX_VARINT_BYTES = 8;
const TWO_POW_7 = 128;

export class LevelCodecError extends Error {
  override readonly name = 'LevelCodecError';
}

function requireCount(value: number, what: string): number {
  if (!Number.isSafeInteger(value) || value < 0) {
    throw new LevelCodecError(`${what} must be a non-negative safe integer, got ${value}`);
  }
  return value;
}

let scratch = Buffer.allocUnsafe(1024);

function writeVarint(target: Buffer, offset: number, value: number): number {
  let rest = value;
  while (rest >= TWO_POW_7) {
    target[offset++] = (rest % TWO_POW_7) | TWO_POW_7;
    rest = Math.floor(rest / TWO_POW_7);
  }
  target[offset++] = rest;
  return offset;
}

function encodeIntoScratch(levels: readonly Level[]): number {
  const needed = 1 + levels.length * 3 * MAX_VARINT_BYTES;
  if (scratch.length < needed) scratch = Buffer.allocUnsafe(needed * 2);
  scratch[0] = FORMAT_V1;
  let offset = 1;
  let previous = 0;
  for (const level of levels) {
    const price = requireCount(level.price, 'level price');
    if (price > MAX_LEVEL_PRICE) throw new LevelCodecError(`level price out of range: ${price}`);
    offset = writeVarint(scratch, offset, zigzag(price - previous));
    offset = writeVarint(scratch, offset, requireCount(level.quantity, 'level quantity'));
    const orders = level.orders === null ? 0 : requireCount(level.orders, 'level orders') + 1;
    offset = writeVarint(scratch, offset, orders);
    previous = price;
  }
  return offset;
}

/** Encodes levels in order. Throws LevelCodecError on a non-integer, negative or too large value. */
export function encodeLevels(levels: readonly Level[]): Buffer {
  return Buffer.from(encodeLevelsTransient(levels));
}

/**
 * encodeLevels without the copy: the bytes stay valid only until the next encode call.
 * For binding a statement parameter that the driver copies at once (the write hot path).
 */
export function encodeLevelsTransient(levels: readonly Level[]): Buffer {
  const length = encodeIntoScratch(levels);
  return scratch.subarray(0, length);
}

let cursor = 0;

function readVarint(bytes: Uint8Array): number {
  let value = 0;
  let factor = 1;
  for (;;) {
    const byte = bytes[cursor++];
    if (byte === undefined) throw new LevelCodecError('truncated level data');
    value += (byte & 0x7f) * factor;
    if (byte < TWO_POW_7) return value;
    factor *= TWO_POW_7;
  }
}

/** Decodes what encodeLevels wrote. Throws LevelCodecError on an unknown format or truncation. */
export function decodeLevels(bytes: Uint8Array): Level[] {
  if (bytes[0] !== FORMAT_V1) throw new LevelCodecError(`unknown level format ${bytes[0]}`);
  const levels: Level[] = [];
  let previous = 0;
  cursor = 1;
  while (cursor < bytes.length) {
    const price = previous + unzigzag(readVarint(bytes));
    const quantity = readVarint(bytes);
    const orders = readVarint(bytes);
    levels.push({ price, quantity, orders: orders === 0 ? null : orders - 1 });
    previous = price;
  }
  return levels;
}
