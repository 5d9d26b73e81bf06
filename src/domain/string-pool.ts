/**
 * One copy of each string seen: what keeps many records that repeat a few names (item names,
 * market ids, currencies, games) from holding a copy each. Used by the book's sales and by the
 * stores' row decoding.
 */
export class StringPool {
  private readonly strings = new Map<string, string>();

  intern<T extends string>(value: T): T {
    const held = this.strings.get(value);
    if (held !== undefined) return held as T;
    this.strings.set(value, value);
    return value;
  }

  get size(): number {
    return this.strings.size;
  }
}
