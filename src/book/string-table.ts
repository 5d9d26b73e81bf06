/**
 * Interned strings behind 16-bit codes (0 is null), so the side columns hold a currency or a
 * time kind in two bytes and every read shares one string instance per value.
 */
const MAX_CODES = 0xffff;

export class StringTable {
  private readonly values: (string | null)[] = [null];
  private readonly codes = new Map<string, number>();

  codeOf(value: string): number | undefined {
    return this.codes.get(value);
  }

  /** Whether `value` has a code or one can still be given to it. */
  canIntern(value: string | null): boolean {
    return value === null || this.codes.has(value) || this.values.length <= MAX_CODES;
  }

  intern(value: string | null): number {
    if (value === null) return 0;
    let code = this.codes.get(value);
    if (code !== undefined) return code;
    if (this.values.length > MAX_CODES) throw new RangeError('string table full');
    code = this.values.length;
    this.values.push(value);
    this.codes.set(value, code);
    return code;
  }

  at(code: number): string | null {
    return this.values[code]!;
  }
}
