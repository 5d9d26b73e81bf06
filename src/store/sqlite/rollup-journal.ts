/**
 * A batch's rollup journal blob and its replay into a fold (docs/history-storage.md, "Rollups,
 * maintained on write"). A blob is FORMAT, then Brotli of varints: the entry count, then each
 * FIELD's column but the aggregate series, each value the zigzag of its difference from the
 * previous entry's, or for price, size and quantity from its slot's base (SlotBases). Earlier
 * formats still replay: UNBASED (no bases), WITH_ALL (that column too), COMPACT, float64s.
 */
import { brotliCompressSync, brotliDecompressSync, constants } from 'node:zlib';
import { marketCode, marketOfCode } from '../../domain/market-codes.ts';
import type { SaleRecord, SideSnapshot } from '../../domain/quote.ts';
import { entersAggregate, sideObservation, type SideObservation } from '../../pricing/rollups.ts';
import {
  RollupCodecError,
  requireStorable,
  SectionReader,
  unzigzag,
  zigzag,
} from '../rollup-codec.ts';
import { VarintWriter } from '../varint-writer.ts';
import { eachRecord } from './journal-segments.ts';
import type { SeriesDirectory } from './series-directory.ts';

/** Below 128, so one varint byte; never 0. */
const [FORMAT, UNBASED, WITH_ALL, COMPACT] = [0x4d, 0x4c, 0x4b, 0x4a];
const KIND = { ask: 0, bid: 1, sale: 2 } as const;
/** Fields: kind, market code, the two series, price, size (a sale's units), quantity, time. */
const [FIELDS, OWN_FIELD, ALL_FIELD, PRICE_FIELD, QUANTITY_FIELD] = [8, 2, 3, 4, 6];
const isBased = (field: number) => field >= PRICE_FIELD && field <= QUANTITY_FIELD;
/** An entry's slot: its series' ask or bid (a sale shares the ask's); none past SLOTS. */
const slotOf = (fields: ArrayLike<number>, at = 0) =>
  fields[at + OWN_FIELD]! * 2 + (fields[at]! & 1);
const SLOTS = 2 ** 22;
/** A difference this large is written as ESCAPE then the value (zigzag stays a safe integer). */
const [DELTA_LIMIT, ESCAPE] = [2 ** 51, 2 ** 52];
/** The aggregate series slot of an observation that stays out of the aggregate. */
const NO_SERIES = 0;
const BROTLI = { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } };

/** Where a replay hands the entries: the calls a writer takes them with. */
export type JournalSink = Pick<JournalWriter, 'side' | 'sale'>;

/** The aggregate series of a market series' item (or a number past every series: none). */
export type AggregateOf = (own: number) => number;

/** `array` if it holds `length` values, else a copy that does (at least twice as long). */
export function grownTo(array: Int32Array<ArrayBuffer>, length: number): Int32Array<ArrayBuffer> {
  if (length <= array.length) return array;
  const grown = new Int32Array(Math.max(length, array.length * 2));
  grown.set(array);
  return grown;
}

/**
 * Per slot, the price, size and quantity last journaled in a segment, as int32 (a larger value
 * wraps alike in the writer and the replay); 0 at a segment's start.
 */
export class SlotBases {
  private values = new Int32Array(0);

  get(field: number, slot: number): number {
    return this.values[slot * 3 + field - PRICE_FIELD] ?? 0;
  }

  set(field: number, slot: number, value: number): void {
    const at = slot * 3 + field - PRICE_FIELD;
    if (slot >= SLOTS) return;
    this.values = grownTo(this.values, at + 1);
    this.values[at] = value;
  }
}

/**
 * Collects one batch's entries, each checked as it comes; `take()` makes them one blob once the
 * batch committed (only then do they move the bases on) and starts over.
 */
export class JournalWriter {
  private readonly columns = Array.from({ length: FIELDS }, () => new VarintWriter(16 * 1024));
  /** The entries collected, FIELDS numbers each (`count` of them: the array is reused). */
  private readonly entries: number[] = [];
  /** Entries collected, and the earliest time they observed (or the last blob taken did). */
  count = 0;
  earliestAt = 0;
  /** The bases of the segment the blobs go to. */
  private bases = new SlotBases();

  side(own: number, all: number, { market, side, price, size, quantity, at }: SideObservation) {
    this.entry(KIND[side], marketCode(market), own, all, price, size, quantity, at);
  }

  /** A sale's market is its series' own; the entry's market is 0. */
  sale(own: number, all: number, price: number, units: number, at: number): void {
    this.entry(KIND.sale, 0, own, all, price, units, 0, at);
  }

  /** Drops what was collected (a batch that failed or rolled back). */
  clear(): void {
    this.count = 0;
  }

  /** Collects a batch's entries; call inside the batch's transaction. */
  batch(directory: SeriesDirectory, sides: readonly SideSnapshot[], sales: readonly SaleRecord[]) {
    this.clear(); // what a batch that failed or never reached its append left
    for (const side of sides) {
      const obs = sideObservation(side);
      if (!obs) continue;
      const own = directory.ensure(side.game, side.itemId, side.market);
      const all = entersAggregate(obs) ? directory.ensure(side.game, side.itemId, null) : NO_SERIES;
      this.side(own, all, obs);
    }
    for (const sale of sales) {
      const own = directory.ensure(sale.game, sale.itemId, sale.market);
      const all = directory.ensure(sale.game, sale.itemId, null);
      this.sale(own, all, sale.price, sale.quantity, sale.soldAt);
    }
  }

  /** The blob of what was collected, on the bases (new ones for a new segment), moving them on. */
  take(opensSegment = false): Buffer {
    if (opensSegment) this.bases = new SlotBases();
    const { columns, entries } = this;
    columns[0]!.put(this.count); // the body starts with the entry count
    for (let field = 0; field < FIELDS; field += 1) {
      if (field === ALL_FIELD) continue; // not journaled: the replay looks it up
      const [column, based] = [columns[field]!, isBased(field)];
      for (let at = 0, previous = 0; at < this.count * FIELDS; at += FIELDS) {
        const [value, slot] = [entries[at + field]!, slotOf(entries, at)];
        const delta = value - (based ? this.bases.get(field, slot) : previous);
        if (based) this.bases.set(field, slot, value);
        previous = value;
        column.put(Math.abs(delta) < DELTA_LIMIT ? zigzag(delta) : ESCAPE);
        if (Math.abs(delta) >= DELTA_LIMIT) column.put(value);
      }
    }
    const body = Buffer.concat(columns.map((column) => column.result()));
    for (const column of columns) column.clear();
    this.clear();
    return Buffer.concat([Buffer.of(FORMAT), brotliCompressSync(body, BROTLI)]);
  }

  /** Checks every field before it keeps any. */
  private entry(...fields: number[]): void {
    const at = fields[FIELDS - 1]!;
    for (const value of fields) requireStorable(value);
    if (!Number.isInteger(at) || at < 0 || at > 2 ** 50)
      throw new RollupCodecError(`rollup time must be whole ms from 0 to 2^50, got ${at}`);
    this.earliestAt = this.count === 0 ? at : Math.min(this.earliestAt, at);
    for (let field = 0; field < FIELDS; field += 1)
      this.entries[this.count * FIELDS + field] = fields[field]!;
    this.count += 1;
  }
}

/** Hands `sink` the entry at `i` of `f`; its aggregate series from `aggregateOf` if given. */
function emit(sink: JournalSink, f: Float64Array, i: number, aggregateOf?: AggregateOf): void {
  const [kind, code, own, all] = [f[i]!, f[i + 1]!, f[i + 2]!, f[i + 3]!];
  const [price, size, quantity, at] = [f[i + 4]!, f[i + 5]!, f[i + 6]!, f[i + 7]!];
  if (kind === KIND.sale) return sink.sale(own, aggregateOf?.(own) ?? all, price, size, at);
  const market = marketOfCode(code);
  if (!market) throw new RollupCodecError(`journal entry of unknown market ${code}`);
  const side = kind === KIND.ask ? 'ask' : 'bid';
  const obs: SideObservation = { market, side, price, size, quantity, at };
  const aggregate = !aggregateOf ? all : entersAggregate(obs) ? aggregateOf(own) : NO_SERIES;
  sink.side(own, aggregate, obs);
}

/** `bases`: a FORMAT blob's, its segment's; a null sink only moves them on. */
function replayColumns(
  blob: Uint8Array,
  sink: JournalSink | null,
  aggregateOf?: AggregateOf,
  bases?: SlotBases,
): void {
  let body: Buffer;
  try {
    body = brotliDecompressSync(blob.subarray(1));
  } catch (error) {
    throw new RollupCodecError(`journal blob is not whole: ${(error as Error).message}`);
  }
  const reader = new SectionReader().begin(body, 0);
  const count = reader.next();
  if (count > body.length) throw new RollupCodecError(`journal blob of ${count} entries is cut`);
  const entries = new Float64Array(count * FIELDS);
  for (let field = 0; field < FIELDS; field += 1) {
    if (aggregateOf && field === ALL_FIELD) continue;
    const based = bases && isBased(field);
    for (let index = 0, value = 0; index < count; index += 1) {
      const delta = reader.next();
      const at = index * FIELDS;
      const slot = based ? slotOf(entries, at) : 0;
      if (based) value = bases.get(field, slot);
      value = delta === ESCAPE ? reader.next() : value + unzigzag(delta);
      if (based) bases.set(field, slot, value);
      entries[at + field] = value;
    }
  }
  if (reader.offset() !== body.length) throw new RollupCodecError('journal blob runs on');
  for (let from = 0; sink && from < entries.length; from += FIELDS)
    emit(sink, entries, from, aggregateOf);
}

/** COMPACT: the first entry's time, then per entry a head (kind + market << 2), fields, time. */
function replayCompact(blob: Uint8Array, sink: JournalSink): void {
  const reader = new SectionReader().begin(blob, 1);
  const firstAt = reader.next();
  while (reader.offset() < blob.length) {
    const head = reader.next();
    const [own, all, price, size, quantity] = [0, 0, 0, 0, 0].map(() => reader.next());
    const at = firstAt + unzigzag(reader.next());
    emit(sink, Float64Array.of(head & 3, head >> 2, own!, all!, price!, size!, quantity!, at), 0);
  }
}

/** The first format: float64s, FIELDS in order (the first byte, a kind's low byte, is 0). */
function replayFloats(blob: Uint8Array, sink: JournalSink): void {
  const entries = new Float64Array(blob.byteLength / 8);
  new Uint8Array(entries.buffer).set(blob);
  for (let from = 0; from < entries.length; from += FIELDS) emit(sink, entries, from);
}

/** Hands every entry of one journal blob to `sink`, in order; `bases` are its segment's, moved
 * on by the blobs before it (a null sink only moves them on). */
export function replayJournal(
  blob: Uint8Array,
  sink: JournalSink | null,
  aggregateOf: AggregateOf,
  bases: SlotBases,
): void {
  if (blob[0] === FORMAT) replayColumns(blob, sink, aggregateOf, bases);
  else if (!sink) return;
  else if (blob[0] === UNBASED) replayColumns(blob, sink, aggregateOf);
  else if (blob[0] === WITH_ALL) replayColumns(blob, sink);
  else if (blob[0] === COMPACT) replayCompact(blob, sink);
  else replayFloats(blob, sink);
}

/** Replays a segment's records on bases of its own, each into the sink `sinkAt` gives for the byte
 * it starts at (null: it only moves them on), `afterEach` after each; returns their bytes. */
export function replaySegment(
  data: Buffer,
  sinkAt: (start: number) => JournalSink | null,
  aggregateOf: AggregateOf,
  afterEach?: () => void,
): number {
  const bases = new SlotBases();
  let start = 0;
  return eachRecord(data, (blob, end) => {
    replayJournal(blob, sinkAt(start), aggregateOf, bases);
    start = end;
    afterEach?.();
  });
}
