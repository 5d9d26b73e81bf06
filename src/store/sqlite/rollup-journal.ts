/**
 * The rollup journal's entry format: every observation a batch hands to the rollups, one blob
 * per batch. The journal commits with the batch, so the stored rollup rows plus the journal past
 * the fold mark are always the whole truth (rollup-folder.ts). Values the rollup codec could not
 * store are refused here, inside the batch's transaction, so a bad value fails its batch instead
 * of every later fold.
 *
 * A blob is FORMAT, the varint time of its first entry, then per entry: a head byte (kind in the
 * low two bits, the market's on-disk code above them), varints of the market series, aggregate
 * series, price, size and quantity, and the zigzag varint of its time minus the blob's first.
 * About 12 bytes an entry, against 64 for the eight float64s of the first format, which is still
 * read (a journal left by an older release): its blobs begin with a float64 kind, whose low byte
 * is 0, so they never begin with FORMAT.
 */
import { marketOfCode } from '../../domain/market-codes.ts';
import { marketOrder, type SideObservation } from '../../pricing/rollups.ts';
import { RollupCodecError, requireStorable } from '../rollup-codec.ts';

const FORMAT = 0xa1;
const KIND = { ask: 0, bid: 1, sale: 2 } as const;
const KIND_BITS = 2;
const MARKET_CODES = 1 << (8 - KIND_BITS);
/** Head byte plus six varints of at most 8 bytes each (safe integers). */
const ENTRY_MAX_BYTES = 1 + 6 * 8;
const LEGACY_FIELDS = 8;

export interface JournalSink {
  side(marketSeries: number, aggregateSeries: number, obs: SideObservation): void;
  sale(
    marketSeries: number,
    aggregateSeries: number,
    price: number,
    units: number,
    at: number,
  ): void;
}

/** Times are whole ms from 0 to 2^50 (the year 37,648), so a zigzag delta stays safe. */
const TIME_LIMIT = 2 ** 50;

function requireTime(at: number): void {
  if (!Number.isInteger(at) || at < 0 || at > TIME_LIMIT) {
    throw new RollupCodecError(`rollup time must be whole ms from 0 to 2^50, got ${at}`);
  }
}

const zigzag = (value: number) => (value >= 0 ? value * 2 : -value * 2 - 1);
const unzigzag = (value: number) => (value % 2 === 0 ? value / 2 : -(value + 1) / 2);

/** Collects one batch's entries; `take()` returns them as one blob and starts over. */
export class JournalWriter implements JournalSink {
  private bytes = Buffer.allocUnsafe(64 * 1024);
  private length = 0;
  private firstAt = 0;

  get isEmpty(): boolean {
    return this.length === 0;
  }

  side(marketSeries: number, aggregateSeries: number, obs: SideObservation): void {
    requireStorable(obs.price);
    requireStorable(obs.size);
    requireStorable(obs.quantity);
    requireTime(obs.at);
    const market = marketOrder(obs.market);
    if (market >= MARKET_CODES) throw new RollupCodecError(`market code ${market} out of range`);
    const kind = obs.side === 'ask' ? KIND.ask : KIND.bid;
    this.entry(kind | (market << KIND_BITS), obs.at);
    this.fields(marketSeries, aggregateSeries, obs.price, obs.size, obs.quantity, obs.at);
  }

  /** A sale's market is its series' own; the entry's market bits stay 0. */
  sale(marketSeries: number, aggregateSeries: number, price: number, units: number, at: number) {
    requireStorable(price);
    requireStorable(units);
    requireTime(at);
    this.entry(KIND.sale, at);
    this.fields(marketSeries, aggregateSeries, price, units, 0, at);
  }

  /** Drops what was collected (a batch that failed part way). */
  clear(): void {
    this.length = 0;
  }

  take(): Buffer {
    const copy = Buffer.from(this.bytes.subarray(0, this.length));
    this.length = 0;
    return copy;
  }

  /** Room for one more entry, the blob's start on its first, then the head byte. */
  private entry(head: number, at: number): void {
    if (this.length + 2 * ENTRY_MAX_BYTES > this.bytes.length) {
      const grown = Buffer.allocUnsafe(this.bytes.length * 2);
      this.bytes.copy(grown, 0, 0, this.length);
      this.bytes = grown;
    }
    if (this.length === 0) {
      this.bytes[this.length++] = FORMAT;
      this.varint(at);
      this.firstAt = at;
    }
    this.bytes[this.length++] = head;
  }

  private fields(own: number, all: number, price: number, size: number, qty: number, at: number) {
    this.varint(own);
    this.varint(all);
    this.varint(price);
    this.varint(size);
    this.varint(qty);
    this.varint(zigzag(at - this.firstAt));
  }

  private varint(value: number): void {
    let rest = value;
    while (rest >= 0x80) {
      this.bytes[this.length++] = (rest % 0x80) | 0x80;
      rest = Math.floor(rest / 0x80);
    }
    this.bytes[this.length++] = rest;
  }
}

/** Reads a compact blob's varints from `offset` on. */
class BlobReader {
  offset = 1;
  constructor(private readonly blob: Uint8Array) {}

  get done(): boolean {
    return this.offset >= this.blob.length;
  }

  byte(): number {
    if (this.offset >= this.blob.length) throw new RollupCodecError('journal blob ends early');
    return this.blob[this.offset++]!;
  }

  varint(): number {
    let value = 0;
    let scale = 1;
    for (;;) {
      const byte = this.byte();
      value += (byte & 0x7f) * scale;
      if (byte < 0x80) return value;
      scale *= 0x80;
    }
  }
}

function replayCompact(blob: Uint8Array, sink: JournalSink): void {
  const reader = new BlobReader(blob);
  const firstAt = reader.varint();
  while (!reader.done) {
    const head = reader.byte();
    const own = reader.varint();
    const all = reader.varint();
    const price = reader.varint();
    const size = reader.varint();
    const quantity = reader.varint();
    const at = firstAt + unzigzag(reader.varint());
    const kind = head & ((1 << KIND_BITS) - 1);
    if (kind === KIND.sale) sink.sale(own, all, price, size, at);
    else {
      const market = marketOfCode(head >> KIND_BITS);
      if (!market)
        throw new RollupCodecError(`journal entry of unknown market ${head >> KIND_BITS}`);
      const side = kind === KIND.ask ? 'ask' : 'bid';
      sink.side(own, all, { market, side, price, size, quantity, at });
    }
  }
}

/** The first format: eight float64s an entry (kind, market, own, all, price, size, quantity, at). */
function replayLegacy(blob: Uint8Array, sink: JournalSink): void {
  const aligned = new Float64Array(blob.byteLength / 8);
  new Uint8Array(aligned.buffer).set(blob);
  for (let at = 0; at < aligned.length; at += LEGACY_FIELDS) {
    const [kind, index, own, all, price, size, quantity, time] = aligned.subarray(
      at,
      at + LEGACY_FIELDS,
    );
    if (kind === KIND.sale) sink.sale(own!, all!, price!, size!, time!);
    else {
      const market = marketOfCode(index!)!;
      const side = kind === KIND.ask ? 'ask' : 'bid';
      sink.side(own!, all!, {
        market,
        side,
        price: price!,
        size: size!,
        quantity: quantity!,
        at: time!,
      });
    }
  }
}

/** Hands every entry of one journal blob to `sink`, in the order they were written. */
export function replayJournal(blob: Uint8Array, sink: JournalSink): void {
  if (blob.length > 0 && blob[0] === FORMAT) replayCompact(blob, sink);
  else replayLegacy(blob, sink);
}
