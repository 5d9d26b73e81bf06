/**
 * The column form of a page body (rollup-pages.ts). The row-major body holds, per bucket, a
 * varint gap, a SECTION_BITS byte and its sections in the rollup codec (rollup-codec.ts). The
 * column form moves every field into a column of its own kind (all the gaps, all the ask
 * minimums, ...), which deflate compresses far better, stores each section's minimum as the
 * difference from the previous bucket's, and leaves out what the rest of a section implies:
 * - sum − n·min: the sketch's bins hold every price, so it is their sums' total − n·min
 *   (0 when min = max and the sketch is implied);
 * - the first bin's step (0: the minimum is in the first bin), the last bin's step (the
 *   maximum is in the last bin) and the last bin's count (the counts add up to n);
 * - the sum of a first or last bin holding a single price: the minimum or the maximum.
 * Only bodies the codec wrote follow these rules; toColumns returns null for any other, and
 * rollup-pages.ts checks that fromColumns gives back the very same bytes before it keeps one.
 *
 * Columns: a varint bit set of the columns present (bit i: column i), then per present column
 * its byte length and its varints.
 */
import { binLow, binOf } from '../../pricing/rollup-sketch.ts';
import { RollupCodecError, SectionReader, unzigzag, zigzag } from '../rollup-codec.ts';
import { VarintWriter } from '../varint-writer.ts';

/** Side fields, one column each per side (ASK_BASE, BID_BASE, SALES_BASE added). */
export const FIELD = {
  min: 0,
  spread: 1,
  lastAt: 2,
  bins: 3,
  binStep: 4,
  binCount: 5,
  binSum: 6,
  tallies: 7,
  market: 8,
  n: 9,
  size: 10,
  quantity: 11,
  top: 12,
} as const;
const FIELDS = 13;
/** A tally's fields in order (asks: the first three). */
const TALLY_FIELDS: readonly number[] = [
  FIELD.market,
  FIELD.n,
  FIELD.size,
  FIELD.quantity,
  FIELD.top,
];
export const GAP = 0;
export const BITS = 1;
/** Per section kind (0 ask, 1 bid, 2 sales): its first column and its SECTION_BITS bit. */
export const BASES: readonly number[] = [2, 2 + FIELDS, 2 + 2 * FIELDS];
const COLUMNS = 2 + 3 * FIELDS;
const SECTION_BITS: readonly number[] = [1, 2, 4];
const KINDS = [0, 1, 2] as const;

/** One section's varints: a side (tallies) or the sales (n). */
interface Section {
  n: number;
  min: number;
  spread: number;
  sumOverMin: number;
  lastAt: number;
  /** [step, count, sum − count × bin low] per bin; empty when min = max. */
  bins: number[];
  /** market, n, size (and for bids quantity, top) per tally. */
  tallies: number[];
}

const SALES = 2;
export const stride = (kind: number) => (kind === 1 ? 5 : 3);

function readSection(reader: SectionReader, kind: number): Section {
  const n = kind === SALES ? reader.next() : 0;
  const min = reader.next();
  const spread = reader.next();
  const sumOverMin = reader.next();
  const lastAt = kind === SALES ? 0 : reader.next();
  const bins: number[] = [];
  for (let count = reader.next() * 3; bins.length < count;) bins.push(reader.next());
  const tallies: number[] = [];
  if (kind !== SALES) {
    for (let count = reader.next() * stride(kind); tallies.length < count;)
      tallies.push(reader.next());
  }
  let total = n;
  for (let at = 1; at < tallies.length; at += stride(kind)) total += tallies[at]!;
  return { n: total, min, spread, sumOverMin, lastAt, bins, tallies };
}

function writeSection(out: VarintWriter, kind: number, section: Section): void {
  if (kind === SALES) out.put(section.n);
  out.put(section.min);
  out.put(section.spread);
  out.put(section.sumOverMin);
  if (kind !== SALES) out.put(section.lastAt);
  out.put(section.bins.length / 3);
  for (const value of section.bins) out.put(value);
  if (kind === SALES) return;
  out.put(section.tallies.length / stride(kind));
  for (const value of section.tallies) out.put(value);
}

/** The sum − n·min the bins imply, or null if the section breaks a rule of the column form. */
function impliedSumOverMin(section: Section): number | null {
  const { bins, min, n } = section;
  const max = min + section.spread;
  if (bins.length === 0) return section.sumOverMin === 0 ? 0 : null;
  let bin = binOf(min);
  let counted = 0;
  let sum = 0;
  for (let at = 0; at < bins.length; at += 3) {
    bin += bins[at]!;
    const count = bins[at + 1]!;
    const binSum = bins[at + 2]!;
    const edge = at === 0 ? min : at === bins.length - 3 ? max : null;
    if (count === 1 && edge !== null && binSum !== edge - binLow(bin)) return null;
    counted += count;
    sum += binSum + count * binLow(bin);
  }
  if (bins[0] !== 0 || bin !== binOf(max) || counted !== n) return null;
  return sum - n * min;
}

type Columns = VarintWriter[];

function putSection(columns: Columns, kind: number, section: Section, previous: number[]) {
  const base = BASES[kind]!;
  const put = (field: number, value: number) => columns[base + field]!.put(value);
  if (kind === SALES) put(FIELD.n, section.n);
  put(FIELD.min, zigzag(section.min - previous[kind]!));
  previous[kind] = section.min;
  put(FIELD.spread, section.spread);
  if (kind !== SALES) put(FIELD.lastAt, section.lastAt);
  put(FIELD.bins, section.bins.length / 3);
  const { bins } = section;
  const last = bins.length - 3;
  for (let at = 0; at < bins.length; at += 3) {
    if (at > 0 && at < last) put(FIELD.binStep, bins[at]!);
    if (at < last) put(FIELD.binCount, bins[at + 1]!);
    const single = bins[at + 1] === 1 && (at === 0 || at === last);
    if (!single) put(FIELD.binSum, bins[at + 2]!);
  }
  if (kind === SALES) return;
  put(FIELD.tallies, section.tallies.length / stride(kind));
  section.tallies.forEach((value, at) => put(TALLY_FIELDS[at % stride(kind)]!, value));
}

/** Reads one section from the columns into `into` (refilled: a page reuses one). */
function takeSection(readers: SectionReader[], kind: number, previous: number[], into: Section) {
  const base = BASES[kind]!;
  let n = kind === SALES ? readers[base + FIELD.n]!.next() : 0;
  const min = previous[kind]! + unzigzag(readers[base + FIELD.min]!.next());
  if (min < 0) throw new RollupCodecError('negative minimum in page columns');
  previous[kind] = min;
  const spread = readers[base + FIELD.spread]!.next();
  into.lastAt = kind === SALES ? 0 : readers[base + FIELD.lastAt]!.next();
  const binCount = readers[base + FIELD.bins]!.next();
  const tallies = into.tallies;
  tallies.length = 0;
  if (kind !== SALES) {
    const width = stride(kind);
    const count = readers[base + FIELD.tallies]!.next() * width;
    for (let at = 0; at < count; at += 1)
      tallies.push(readers[base + TALLY_FIELDS[at % width]!]!.next());
    for (let at = 1; at < count; at += width) n += tallies[at]!;
  }
  const max = min + spread;
  const bins = into.bins;
  bins.length = 0;
  let bin = binOf(min);
  let counted = 0;
  let sum = 0;
  let negative = false;
  for (let index = 0; index < binCount; index += 1) {
    const isLast = index === binCount - 1;
    const step =
      index === 0 ? 0 : isLast ? binOf(max) - bin : readers[base + FIELD.binStep]!.next();
    bin += step;
    const low = binLow(bin);
    const count = isLast ? n - counted : readers[base + FIELD.binCount]!.next();
    const edge = index === 0 ? min : isLast ? max : -1;
    const binSum = count === 1 && edge >= 0 ? edge - low : readers[base + FIELD.binSum]!.next();
    bins.push(step, count, binSum);
    negative ||= step < 0 || count < 0 || binSum < 0;
    counted += count;
    sum += binSum + count * low;
  }
  into.n = n;
  into.min = min;
  into.spread = spread;
  into.sumOverMin = binCount === 0 ? 0 : sum - n * min;
  if (negative || into.sumOverMin < 0) throw new RollupCodecError('inconsistent page columns');
  return into;
}

/** The column form of a row-major page body, or null if it does not follow the rules. */
export function toColumns(rows: Uint8Array): Buffer | null {
  const reader = new SectionReader().begin(rows);
  const columns = Array.from({ length: COLUMNS }, () => new VarintWriter());
  const previous = [0, 0, 0];
  while (reader.offset() < rows.length) {
    columns[GAP]!.put(reader.next());
    const bits = reader.next();
    if (bits === 0 || bits >= 8) return null;
    columns[BITS]!.put(bits);
    for (const kind of KINDS) {
      if (!(bits & SECTION_BITS[kind]!)) continue;
      const section = readSection(reader, kind);
      if (impliedSumOverMin(section) !== section.sumOverMin) return null;
      putSection(columns, kind, section, previous);
    }
  }
  const out = new VarintWriter();
  out.put(columns.reduce((set, column, index) => set + (column.length > 0 ? 2 ** index : 0), 0));
  for (const column of columns) if (column.length > 0) out.append(column);
  return Buffer.from(out.result());
}

/** Splits the column form into one reader per column. */
export function columnReaders(bytes: Uint8Array): SectionReader[] {
  const header = new SectionReader().begin(bytes);
  const present = header.next();
  if (present >= 2 ** COLUMNS) throw new RollupCodecError('unknown page column layout');
  const readers: SectionReader[] = [];
  for (let column = 0; column < COLUMNS; column += 1) {
    const length = Math.floor(present / 2 ** column) % 2 === 1 ? header.next() : 0;
    const start = header.offset();
    if (start + length > bytes.length) throw new RollupCodecError('truncated page columns');
    readers.push(new SectionReader().begin(bytes.subarray(start, start + length)));
    header.begin(bytes, start + length);
  }
  header.finished('page columns');
  return readers;
}

/** The row-major page body of a column form (the inverse of toColumns). */
export function fromColumns(bytes: Uint8Array): Buffer {
  const readers = columnReaders(bytes);
  const gaps = readers[GAP]!;
  const out = new VarintWriter(bytes.length * 2);
  const previous = [0, 0, 0];
  const section: Section = {
    n: 0,
    min: 0,
    spread: 0,
    sumOverMin: 0,
    lastAt: 0,
    bins: [],
    tallies: [],
  };
  while (gaps.offset() < gaps.bytes().length) {
    out.put(gaps.next());
    const bits = readers[BITS]!.next();
    out.put(bits);
    for (const kind of KINDS) {
      if (bits & SECTION_BITS[kind]!)
        writeSection(out, kind, takeSection(readers, kind, previous, section));
    }
  }
  readers.forEach((reader, column) => reader.finished(`page column ${column}`));
  return out.result();
}
