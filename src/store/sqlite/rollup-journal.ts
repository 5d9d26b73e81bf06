/**
 * The rollup journal's entry format: every observation a batch hands to the rollups,
 * packed as ENTRY_FIELDS float64s per entry, one blob per batch. The journal commits with
 * the batch, so the stored rollup rows plus the journal past the fold mark are always the whole
 * truth (rollup-folder.ts). Values the rollup codec could not store are refused here, inside
 * the batch's transaction, so a bad value fails its batch instead of every later fold.
 */
import { marketOfCode } from '../../domain/market-codes.ts';
import { marketOrder, type SideObservation } from '../../pricing/rollups.ts';
import { requireStorable } from '../rollup-codec.ts';

export const ENTRY_FIELDS = 8;
const KIND = { ask: 0, bid: 1, sale: 2 } as const;

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

/** Collects one batch's entries; `take()` returns them as one blob and starts over. */
export class JournalWriter implements JournalSink {
  private values = new Float64Array(ENTRY_FIELDS * 1024);
  private length = 0;

  get isEmpty(): boolean {
    return this.length === 0;
  }

  side(marketSeries: number, aggregateSeries: number, obs: SideObservation): void {
    requireStorable(obs.price);
    requireStorable(obs.size);
    requireStorable(obs.quantity);
    const kind = obs.side === 'ask' ? KIND.ask : KIND.bid;
    const market = marketOrder(obs.market);
    this.push(
      kind,
      market,
      marketSeries,
      aggregateSeries,
      obs.price,
      obs.size,
      obs.quantity,
      obs.at,
    );
  }

  /** A sale's market is its series' own; the entry's market slot stays 0. */
  sale(marketSeries: number, aggregateSeries: number, price: number, units: number, at: number) {
    requireStorable(price);
    requireStorable(units);
    this.push(KIND.sale, 0, marketSeries, aggregateSeries, price, units, 0, at);
  }

  /** Drops what was collected (a batch that failed part way). */
  clear(): void {
    this.length = 0;
  }

  take(): Buffer {
    const bytes = Buffer.from(this.values.buffer, 0, this.length * 8);
    const copy = Buffer.from(bytes);
    this.length = 0;
    return copy;
  }

  private push(
    kind: number,
    market: number,
    own: number,
    all: number,
    price: number,
    size: number,
    quantity: number,
    at: number,
  ): void {
    if (this.length + ENTRY_FIELDS > this.values.length) {
      const grown = new Float64Array(this.values.length * 2);
      grown.set(this.values);
      this.values = grown;
    }
    const values = this.values;
    const start = this.length;
    values[start] = kind;
    values[start + 1] = market;
    values[start + 2] = own;
    values[start + 3] = all;
    values[start + 4] = price;
    values[start + 5] = size;
    values[start + 6] = quantity;
    values[start + 7] = at;
    this.length = start + ENTRY_FIELDS;
  }
}

/** Hands every entry of one journal blob to `sink`, in the order they were written. */
export function replayJournal(blob: Uint8Array, sink: JournalSink): void {
  const aligned = new Float64Array(blob.byteLength / 8);
  new Uint8Array(aligned.buffer).set(blob);
  for (let at = 0; at < aligned.length; at += ENTRY_FIELDS) {
    const [kind, index, own, all, price, size, quantity, time] = aligned.subarray(
      at,
      at + ENTRY_FIELDS,
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
