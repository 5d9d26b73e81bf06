/**
 * The rollup journal: inside a batch's transaction, every side snapshot that observes something
 * and every newly stored sale, under their series ids, as one blob. It commits with the batch,
 * so the rollup rows plus the journal past the fold mark are always the whole truth
 * (store-rollups.ts decides what counts and folds it). Values the rollup codec could not store
 * fail their batch here rather than every later fold.
 *
 * A blob is varints: FORMAT, the time of its first entry, then per entry a head (kind in the low
 * two bits, the market's on-disk code above them), the market series, aggregate series, price,
 * size and quantity, and the zigzag of its time minus the blob's first: about 12 bytes an entry.
 * Blobs of the first format (eight float64s an entry, left by an older release) are still
 * read: they begin with a float64 kind, whose low byte is 0, never FORMAT.
 */
import { marketOfCode } from '../../domain/market-codes.ts';
import type { SaleRecord, SideSnapshot } from '../../domain/quote.ts';
import {
  entersAggregate,
  marketOrder,
  sideObservation,
  type SideObservation,
} from '../../pricing/rollups.ts';
import {
  RollupCodecError,
  requireStorable,
  SectionReader,
  unzigzag,
  zigzag,
} from '../rollup-codec.ts';
import { VarintWriter } from '../varint-writer.ts';
import type { SeriesDirectory } from './series-directory.ts';

/** Below 128, so it is one varint byte; never 0, the first byte of every first-format blob. */
const FORMAT = 0x4a;
const KIND = { ask: 0, bid: 1, sale: 2 } as const;
const KIND_BITS = 2;
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

/** Collects one batch's entries; `take()` returns them as one blob and starts over. */
export class JournalWriter implements JournalSink {
  private readonly out = new VarintWriter(64 * 1024);
  private firstAt = 0;
  private earliest = 0;

  /** The earliest time observed by the blob being collected, or by the last one taken. */
  get earliestAt(): number {
    return this.earliest;
  }

  get isEmpty(): boolean {
    return this.out.length === 0;
  }

  side(marketSeries: number, aggregateSeries: number, obs: SideObservation): void {
    requireStorable(obs.price);
    requireStorable(obs.size);
    requireStorable(obs.quantity);
    requireTime(obs.at);
    const market = marketOrder(obs.market);
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
    this.out.clear();
  }

  take(): Buffer {
    const copy = Buffer.from(this.out.result());
    this.out.clear();
    return copy;
  }

  /** The blob's start on its first entry (FORMAT, the time later ones are relative to), the head. */
  private entry(head: number, at: number): void {
    if (this.out.length === 0) {
      this.out.put(FORMAT);
      this.out.put(at);
      this.firstAt = at;
      this.earliest = at;
    }
    this.earliest = Math.min(this.earliest, at);
    this.out.put(head);
  }

  private fields(own: number, all: number, price: number, size: number, qty: number, at: number) {
    const out = this.out;
    out.put(own);
    out.put(all);
    out.put(price);
    out.put(size);
    out.put(qty);
    out.put(zigzag(at - this.firstAt));
  }
}

/** The aggregate series slot of an observation that stays out of the aggregate. */
const NO_SERIES = 0;

/** A batch's blob (null when it observed nothing); call inside the batch's transaction. */
export function journalBatch(
  journal: JournalWriter,
  directory: SeriesDirectory,
  sides: readonly SideSnapshot[],
  newSales: readonly SaleRecord[],
): Buffer | null {
  try {
    for (const side of sides) {
      const observation = sideObservation(side);
      if (!observation) continue;
      const own = directory.ensure(side.game, side.itemId, side.market);
      const aggregate = entersAggregate(observation);
      const all = aggregate ? directory.ensure(side.game, side.itemId, null) : NO_SERIES;
      journal.side(own, all, observation);
    }
    for (const sale of newSales) {
      const own = directory.ensure(sale.game, sale.itemId, sale.market);
      const all = directory.ensure(sale.game, sale.itemId, null);
      journal.sale(own, all, sale.price, sale.quantity, sale.soldAt);
    }
  } catch (error) {
    journal.clear();
    throw error;
  }
  return journal.isEmpty ? null : journal.take();
}

function replayCompact(blob: Uint8Array, sink: JournalSink): void {
  const reader = new SectionReader().begin(blob, 1);
  const firstAt = reader.next();
  while (reader.offset() < blob.length) {
    const head = reader.next();
    const own = reader.next();
    const all = reader.next();
    const price = reader.next();
    const size = reader.next();
    const quantity = reader.next();
    const at = firstAt + unzigzag(reader.next());
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
