/**
 * The column form of a page body (rollup-pages.ts): its writer, and its reader straight into
 * rollup partials. What it stores and leaves out: docs/history-storage.md, "SQLite layout". Bytes:
 * a varint bit set of the columns present (bit i: column i), then per present column its byte
 * length and its varints; earlier pages store a bid's top from the minimum (topFromMax false).
 */
import { marketOfCode } from '../../domain/market-codes.ts';
import type { Side } from '../../domain/observation.ts';
import { binLow, binOf, type Sketch } from '../../pricing/rollup-sketch.ts';
import { TALLY, TALLY_STRIDE, type PriceTally, type SidePartial } from '../../pricing/rollups.ts';
import { RollupCodecError, SectionReader, tallyInto, unzigzag, zigzag } from '../rollup-codec.ts';
import { VarintWriter } from '../varint-writer.ts';
import { blankSide, type PageVisit, type SectionSource } from './page-format.ts';

/** A section's columns, from its kind's base (a tally's fields from MARKET on, in TALLY order). */
const [MIN, SPREAD, LAST_AT, BINS, BIN_STEP, BIN_COUNT, BIN_SUM] = [0, 1, 2, 3, 4, 5, 6];
const [TALLIES, MARKET, N, SIZE, QUANTITY, TOP] = [7, 8, 9, 10, 11, 12];
const [GAP, BITS] = [0, 1];
/** The first column of each section kind: 0 ask, 1 bid, 2 sales (their SECTION_BITS: 1, 2, 4). */
const BASES: readonly number[] = [2, 15, 28];
const SALES = BASES[2]!;
const COLUMNS = 41;

/** Writes sections, as the codec decodes them (at bucket start 0), into their columns. */
class ColumnWriter {
  readonly columns = Array.from({ length: COLUMNS }, () => new VarintWriter());
  private readonly previousMin = [0, 0, 0];

  put(column: number, value: number): void {
    this.columns[column]!.put(value);
  }

  side(kind: number, { prices, markets, lastAt }: SidePartial): void {
    const base = BASES[kind]!;
    this.prices(kind, prices);
    this.put(base + LAST_AT, lastAt === null ? 0 : zigzag(lastAt) + 1);
    this.put(base + TALLIES, markets.length / TALLY_STRIDE);
    for (let at = 0; at < markets.length; at += TALLY_STRIDE) {
      for (let field = 0; field < (kind === 0 ? 3 : 4); field += 1)
        this.put(base + MARKET + field, markets[at + field]!);
      if (kind === 1) this.put(base + TOP, zigzag(prices.max - markets[at + TALLY.top]!));
    }
  }

  sales(tally: PriceTally): void {
    this.put(SALES + N, tally.n);
    this.prices(2, tally);
  }

  /** The minimum, the spread and the bins as the codec stores them, less what they imply. */
  private prices(kind: number, { min, max, sketch }: PriceTally): void {
    const base = BASES[kind]!;
    this.put(base + MIN, zigzag(min - this.previousMin[kind]!));
    this.put(base + SPREAD, max - min);
    this.previousMin[kind] = min;
    const last = min === max ? -3 : sketch.length - 3;
    this.put(base + BINS, last / 3 + 1);
    for (let at = 0; at <= last; at += 3) {
      const count = sketch[at + 1]!;
      if (at > 0 && at < last) this.put(base + BIN_STEP, sketch[at]! - sketch[at - 3]!);
      if (at < last) this.put(base + BIN_COUNT, count);
      if (count !== 1 || (at > 0 && at < last))
        this.put(base + BIN_SUM, sketch[at + 2]! - count * binLow(sketch[at]!));
    }
  }
}

export function toColumns(rows: Uint8Array): Buffer {
  const reader = new SectionReader().begin(rows);
  const writer = new ColumnWriter();
  while (reader.offset() < rows.length) {
    writer.put(GAP, reader.next());
    const bits = reader.next();
    writer.put(BITS, bits);
    if (bits & 1) writer.side(0, reader.side('ask', 0));
    if (bits & 2) writer.side(1, reader.side('bid', 0));
    if (bits & 4) writer.sales(reader.sales());
  }
  const out = new VarintWriter();
  const { columns } = writer;
  out.put(columns.reduce((set, column, index) => set + (column.length > 0 ? 2 ** index : 0), 0));
  for (const column of columns) if (column.length > 0) out.append(column);
  return Buffer.from(out.result());
}

function setBin(out: Sketch, at: number, bin: number, count: number, sum: number): void {
  out[at] = bin;
  out[at + 1] = count;
  out[at + 2] = sum;
}

/** Reads the sections of a column form, bucket by bucket, as SectionReader reads the codec's. */
export class ColumnSections implements SectionSource {
  private readonly columns: SectionReader[] = [];
  private readonly previousMin = [0, 0, 0];
  private readonly skipped = blankSide();

  constructor(
    bytes: Uint8Array,
    private readonly topFromMax: boolean,
  ) {
    const header = new SectionReader().begin(bytes);
    const present = header.next();
    if (present >= 2 ** COLUMNS) throw new RollupCodecError('unknown page column layout');
    for (let column = 0; column < COLUMNS; column += 1) {
      const length = Math.floor(present / 2 ** column) % 2 === 1 ? header.next() : 0;
      const start = header.offset();
      if (start + length > bytes.length) throw new RollupCodecError('truncated page columns');
      this.columns.push(new SectionReader().begin(bytes.subarray(start, start + length)));
      header.begin(bytes, start + length);
    }
    header.finished('page columns');
  }

  walk(first: number, visit: PageVisit) {
    const gaps = this.columns[GAP]!;
    for (let bucket = first - 1; gaps.offset() < gaps.bytes().length;) {
      bucket += 1 + gaps.next();
      visit(bucket, this.columns[BITS]!.next(), this);
    }
    this.columns.forEach((column, index) => column.finished(`page column ${index}`));
  }

  side(side: Side, bucketStart: number, into?: SidePartial, withSketch = true): SidePartial {
    const kind = side === 'ask' ? 0 : 1;
    const base = BASES[kind]!;
    const min = this.min(kind);
    const max = min + this.take(base + SPREAD);
    const lastAtCode = this.take(base + LAST_AT);
    const markets = into?.markets ?? [];
    markets.length = this.take(base + TALLIES) * 5;
    let n = 0;
    for (let at = 0; at < markets.length; at += 5) {
      const market = this.take(base + MARKET);
      if (marketOfCode(market) === undefined)
        throw new RollupCodecError('unknown market code in rollup data');
      markets[at] = market;
      n += markets[at + TALLY.n] = this.take(base + N);
      markets[at + TALLY.size] = this.take(base + SIZE);
      markets[at + TALLY.quantity] = kind === 0 ? 0 : this.take(base + QUANTITY);
      const top = kind === 0 ? 0 : unzigzag(this.take(base + TOP));
      markets[at + TALLY.top] = kind === 0 ? 0 : this.topFromMax ? max - top : min + top;
    }
    const sketch = into?.prices.sketch ?? [];
    const sum = this.sketch(base, n, min, max, sketch, withSketch);
    const prices = tallyInto(into?.prices, n, sum, min, max, sketch);
    const lastAt = lastAtCode === 0 ? null : bucketStart + unzigzag(lastAtCode - 1);
    if (!into) return { prices, markets, lastAt };
    into.lastAt = lastAt;
    return into;
  }

  skipSide(side: Side): void {
    this.side(side, 0, this.skipped, false);
  }

  sales(into?: PriceTally): PriceTally {
    const n = this.take(SALES + N);
    const min = this.min(2);
    const max = min + this.take(SALES + SPREAD);
    const sketch = into?.sketch ?? [];
    return tallyInto(into, n, this.sketch(SALES, n, min, max, sketch, true), min, max, sketch);
  }

  private take(column: number): number {
    return this.columns[column]!.next();
  }

  private min(kind: number): number {
    const min = this.previousMin[kind]! + unzigzag(this.take(BASES[kind]! + MIN));
    if (min < 0) throw new RollupCodecError('negative minimum in page columns');
    this.previousMin[kind] = min;
    return min;
  }

  /** Reads a sketch's bins into `out` (left empty without `keep`); returns the prices' sum. */
  private sketch(base: number, n: number, min: number, max: number, out: Sketch, keep: boolean) {
    const bins = this.take(base + BINS);
    out.length = keep ? Math.max(bins, 1) * 3 : 0;
    if (bins === 0 && keep) setBin(out, 0, binOf(min), n, n * min);
    if (bins === 0) return n * min;
    let [bin, counted, sum] = [binOf(min), 0, 0];
    for (let index = 0; index < bins; index += 1) {
      const isLast = index === bins - 1;
      if (index > 0) bin = isLast ? binOf(max) : bin + this.take(base + BIN_STEP);
      const low = binLow(bin);
      const count = isLast ? n - counted : this.take(base + BIN_COUNT);
      const edge = index === 0 ? min : isLast ? max : -1;
      const binSum = count === 1 && edge >= 0 ? edge : low * count + this.take(base + BIN_SUM);
      if (count < 0 || binSum < low * count)
        throw new RollupCodecError('inconsistent page columns');
      if (keep) setBin(out, index * 3, bin, count, binSum);
      counted += count;
      sum += binSum;
    }
    return sum;
  }
}
