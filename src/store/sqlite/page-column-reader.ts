/**
 * Reads the sections of a page in its column form (page-columns.ts) straight into rollup
 * partials, as SectionReader does from the rollup codec's bytes, so a range read over pages
 * decodes each field once. The implied fields are worked out as in fromColumns.
 */
import { marketOfCode } from '../../domain/market-codes.ts';
import type { Side } from '../../domain/observation.ts';
import { binLow, binOf, type Sketch } from '../../pricing/rollup-sketch.ts';
import { TALLY, type PriceTally, type SidePartial } from '../../pricing/rollups.ts';
import { RollupCodecError, tallyInto, unzigzag, type SectionReader } from '../rollup-codec.ts';
import { BASES, BITS, FIELD, GAP, columnReaders } from './page-columns.ts';

/** What a page walk hands its visitor: the bucket's sections, read in order. */
export type SectionSource = Pick<SectionReader, 'side' | 'skipSide' | 'sales'>;

const SALES = 2;
/** The tally fields a skipped side reads past, besides the counts. */
const ASK_SKIPPED = [FIELD.market, FIELD.size];
const BID_SKIPPED = [FIELD.market, FIELD.size, FIELD.quantity, FIELD.top];

export class ColumnSections implements SectionSource {
  private readonly columns: SectionReader[];
  private readonly previousMin = [0, 0, 0];
  private readonly skipped: Sketch = [];

  constructor(body: Uint8Array) {
    this.columns = columnReaders(body);
  }

  /** Walks the buckets: `visit` must read every section the bucket's bits announce. */
  walk(first: number, visit: (bucket: number, bits: number, source: SectionSource) => void) {
    const gaps = this.columns[GAP]!;
    let bucket = first - 1;
    while (gaps.offset() < gaps.bytes().length) {
      bucket += 1 + gaps.next();
      visit(bucket, this.columns[BITS]!.next(), this);
    }
    this.columns.forEach((column, index) => column.finished(`page column ${index}`));
  }

  side(side: Side, bucketStart: number, into?: SidePartial, withSketch = true): SidePartial {
    const kind = side === 'ask' ? 0 : 1;
    const base = BASES[kind]!;
    const min = this.min(kind);
    const max = min + this.take(base + FIELD.spread);
    const lastAtCode = this.take(base + FIELD.lastAt);
    const bins = this.take(base + FIELD.bins);
    const markets = into?.markets ?? [];
    markets.length = this.take(base + FIELD.tallies) * 5;
    const codes = this.columns[base + FIELD.market]!;
    const counts = this.columns[base + FIELD.n]!;
    const sizes = this.columns[base + FIELD.size]!;
    let n = 0;
    for (let at = 0; at < markets.length; at += 5) {
      const market = codes.next();
      if (marketOfCode(market) === undefined)
        throw new RollupCodecError('unknown market code in rollup data');
      markets[at] = market;
      n += markets[at + TALLY.n] = counts.next();
      markets[at + TALLY.size] = sizes.next();
      markets[at + TALLY.quantity] = kind === 0 ? 0 : this.take(base + FIELD.quantity);
      markets[at + TALLY.top] = kind === 0 ? 0 : min + unzigzag(this.take(base + FIELD.top));
    }
    const sketch = into?.prices.sketch ?? [];
    const sum = this.sketch(base, bins, n, min, max, sketch, withSketch);
    const lastAt = lastAtCode === 0 ? null : bucketStart + unzigzag(lastAtCode - 1);
    if (!into) return { prices: { n, sum, min, max, sketch }, markets, lastAt };
    const prices = into.prices;
    prices.n = n;
    prices.sum = sum;
    prices.min = min;
    prices.max = max;
    into.lastAt = lastAt;
    return into;
  }

  /** Reads past a side: its tallies' counts still give the last bin's count. */
  skipSide(side: Side): void {
    const kind = side === 'ask' ? 0 : 1;
    const base = BASES[kind]!;
    const min = this.min(kind);
    const max = min + this.take(base + FIELD.spread);
    this.take(base + FIELD.lastAt);
    const bins = this.take(base + FIELD.bins);
    const tallies = this.take(base + FIELD.tallies);
    const counts = this.columns[base + FIELD.n]!;
    let n = 0;
    for (let tally = 0; tally < tallies; tally += 1) n += counts.next();
    for (const field of kind === 0 ? ASK_SKIPPED : BID_SKIPPED) {
      const column = this.columns[base + field]!;
      for (let tally = 0; tally < tallies; tally += 1) column.next();
    }
    this.sketch(base, bins, n, min, max, this.skipped, false);
  }

  sales(into?: PriceTally): PriceTally {
    const base = BASES[SALES]!;
    const n = this.take(base + FIELD.n);
    const min = this.min(SALES);
    const max = min + this.take(base + FIELD.spread);
    const sketch = into?.sketch ?? [];
    const sum = this.sketch(base, this.take(base + FIELD.bins), n, min, max, sketch, true);
    return tallyInto(into, n, sum, min, max, sketch);
  }

  private take(column: number): number {
    return this.columns[column]!.next();
  }

  private min(kind: number): number {
    const min = this.previousMin[kind]! + unzigzag(this.take(BASES[kind]! + FIELD.min));
    if (min < 0) throw new RollupCodecError('negative minimum in page columns');
    this.previousMin[kind] = min;
    return min;
  }

  /** Reads a sketch's bins into `out` (left empty without `keep`); returns the prices' sum. */
  private sketch(
    base: number,
    bins: number,
    n: number,
    min: number,
    max: number,
    out: Sketch,
    keep: boolean,
  ): number {
    out.length = keep ? Math.max(bins, 1) * 3 : 0;
    if (bins === 0) {
      if (keep) {
        out[0] = binOf(min);
        out[1] = n;
        out[2] = n * min;
      }
      return n * min;
    }
    const steps = this.columns[base + FIELD.binStep]!;
    const counts = this.columns[base + FIELD.binCount]!;
    const sums = this.columns[base + FIELD.binSum]!;
    let bin = binOf(min);
    let counted = 0;
    let sum = 0;
    for (let index = 0; index < bins; index += 1) {
      const isLast = index === bins - 1;
      if (index > 0) bin = isLast ? binOf(max) : bin + steps.next();
      const low = binLow(bin);
      const count = isLast ? n - counted : counts.next();
      const edge = index === 0 ? min : isLast ? max : -1;
      const binSum = count === 1 && edge >= 0 ? edge : low * count + sums.next();
      if (count < 0 || binSum < low * count)
        throw new RollupCodecError('inconsistent page columns');
      if (keep) {
        out[index * 3] = bin;
        out[index * 3 + 1] = count;
        out[index * 3 + 2] = binSum;
      }
      counted += count;
      sum += binSum;
    }
    return sum;
  }
}
