/**
 * Price ladders packed in one Int32Array as (price, quantity, orders) triples, one region per
 * side: a ladder costs 12 bytes a level instead of an object per level and an array per side.
 * A region keeps its capacity, so a ladder that does not outgrow it is rewritten in place;
 * one that does moves to the end, and the space it leaves is reclaimed by compacting when it
 * exceeds the space in use, or a quarter of it when the array would otherwise have to grow. Only ladders `fitsArena` accepts are stored here.
 */
import type { Level } from '../domain/quote.ts';

const INT32_MAX = 0x7fffffff;
const NULL_ORDERS = -1;
const FIELDS = 3;
const MIN_LEVELS = 1024;

/** A non-negative int32 (and not -0), so it reads back as the same number. */
export function fitsInt32(value: number): boolean {
  return Number.isInteger(value) && value >= 0 && value <= INT32_MAX && !Object.is(value, -0);
}

export function fitsArena(levels: readonly Level[]): boolean {
  for (const level of levels) {
    if (!fitsInt32(level.price) || !fitsInt32(level.quantity)) return false;
    if (level.orders !== null && !fitsInt32(level.orders)) return false;
  }
  return true;
}

function grown<T extends Int32Array>(array: T, size: number): T {
  const next = new (array.constructor as new (length: number) => T)(size);
  next.set(array);
  return next;
}

export class LevelArena {
  private data = new Int32Array(MIN_LEVELS * FIELDS);
  /** Levels written at the end so far (live or abandoned). */
  private end = 0;
  private abandoned = 0;
  private start = new Int32Array(0);
  private count = new Int32Array(0);
  private capacity = new Int32Array(0);

  /** Makes room for regions 0 .. `regions` − 1 (new ones are empty). */
  ensureRegions(regions: number): void {
    if (regions <= this.start.length) return;
    const size = Math.max(regions, Math.ceil(this.start.length * 1.5), 64);
    this.start = grown(this.start, size);
    this.count = grown(this.count, size);
    this.capacity = grown(this.capacity, size);
  }

  levelCount(region: number): number {
    return this.count[region]!;
  }

  /** Replaces a region's ladder (every level must satisfy `fitsArena`). */
  write(region: number, levels: readonly Level[]): void {
    const n = levels.length;
    if (n > this.capacity[region]!) this.relocate(region, n);
    let at = this.start[region]! * FIELDS;
    for (const level of levels) {
      this.data[at] = level.price;
      this.data[at + 1] = level.quantity;
      this.data[at + 2] = level.orders ?? NULL_ORDERS;
      at += FIELDS;
    }
    this.count[region] = n;
  }

  read(region: number): Level[] {
    const n = this.count[region]!;
    const levels = new Array<Level>(n);
    let at = this.start[region]! * FIELDS;
    for (let i = 0; i < n; i += 1) {
      const orders = this.data[at + 2]!;
      levels[i] = {
        price: this.data[at]!,
        quantity: this.data[at + 1]!,
        orders: orders === NULL_ORDERS ? null : orders,
      };
      at += FIELDS;
    }
    return levels;
  }

  /** What the region's ladder offers: each level's orders, or its quantity where orders are null. */
  size(region: number): number {
    let total = 0;
    const end = (this.start[region]! + this.count[region]!) * FIELDS;
    for (let at = this.start[region]! * FIELDS; at < end; at += FIELDS) {
      const orders = this.data[at + 2]!;
      total += orders === NULL_ORDERS ? this.data[at + 1]! : orders;
    }
    return total;
  }

  /** The price of a region's first level (the region must hold one). */
  firstPrice(region: number): number {
    return this.data[this.start[region]! * FIELDS]!;
  }

  /** Empties a region and gives its space up. */
  release(region: number): void {
    this.abandoned += this.capacity[region]!;
    this.capacity[region] = 0;
    this.count[region] = 0;
  }

  /** Int32 slots allocated, in bytes (for tests and benchmarks). */
  byteLength(): number {
    return this.data.byteLength + this.start.byteLength * 3;
  }

  private relocate(region: number, levels: number): void {
    this.release(region);
    const live = this.end - this.abandoned;
    const full = (this.end + levels) * FIELDS > this.data.length;
    if (this.abandoned > live || (full && this.abandoned * 4 > live)) this.compact();
    const needed = this.end + levels;
    if (needed * FIELDS > this.data.length) {
      const size = Math.max(needed, Math.ceil((this.data.length / FIELDS) * 1.5));
      this.data = grown(this.data, size * FIELDS);
    }
    this.start[region] = this.end;
    this.capacity[region] = levels;
    this.end += levels;
  }

  /** Moves every live region to the front, in region order, keeping each one's capacity. */
  private compact(): void {
    const live = this.end - this.abandoned;
    const next = new Int32Array(Math.max(MIN_LEVELS, Math.ceil(live * 1.25)) * FIELDS);
    let end = 0;
    for (let region = 0; region < this.start.length; region += 1) {
      const capacity = this.capacity[region]!;
      if (capacity === 0) continue;
      const from = this.start[region]! * FIELDS;
      next.set(this.data.subarray(from, from + this.count[region]! * FIELDS), end * FIELDS);
      this.start[region] = end;
      end += capacity;
    }
    this.data = next;
    this.end = end;
    this.abandoned = 0;
  }
}
