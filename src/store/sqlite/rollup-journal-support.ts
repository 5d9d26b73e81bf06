/**
 * Test support: journal blobs of formats earlier releases wrote, so tests can check that they
 * still replay and fold after an upgrade: the row format before issue 31's columns (0x4a: the
 * first entry's time, then per entry a head of kind and market code, the two series, price,
 * size, quantity and the zigzag of its time minus the first, all varints), and the columns
 * before the slot bases (0x4c).
 */
import { brotliCompressSync } from 'node:zlib';
import { marketCode } from '../../domain/market-codes.ts';
import type { SideObservation } from '../../pricing/rollups.ts';
import { zigzag } from '../rollup-codec.ts';
import { VarintWriter } from '../varint-writer.ts';
import type { JournalSink } from './rollup-journal.ts';

/** The row-format blob of the entries `write` hands its sink. */
export function rowFormatBlob(write: (sink: JournalSink) => void): Buffer {
  const out = new VarintWriter();
  let firstAt = 0;
  const entry = (head: number, fields: number[], at: number) => {
    if (out.length === 0) {
      out.put(0x4a);
      out.put(at);
      firstAt = at;
    }
    for (const value of [head, ...fields, zigzag(at - firstAt)]) out.put(value);
  };
  write({
    side: (own, all, obs) => {
      const head = (obs.side === 'ask' ? 0 : 1) | (marketCode(obs.market) << 2);
      entry(head, [own, all, obs.price, obs.size, obs.quantity], obs.at);
    },
    sale: (own, all, price, units, at) => entry(2, [own, all, price, units, 0], at),
  });
  return Buffer.from(out.result());
}

/**
 * Collects entries as JournalWriter does and takes them as a blob of the release before the slot
 * bases (0x4c): the entry count, then per field but the aggregate series (kind, market code, the
 * market series, price, size, quantity, time) a column of each value's zigzagged difference from
 * the entry before's, all Brotli-compressed.
 */
export class UnbasedWriter implements JournalSink {
  private entries: number[][] = [];

  side(own: number, _all: number, obs: SideObservation): void {
    const kind = obs.side === 'ask' ? 0 : 1;
    this.entries.push([
      kind,
      marketCode(obs.market),
      own,
      obs.price,
      obs.size,
      obs.quantity,
      obs.at,
    ]);
  }

  sale(own: number, _all: number, price: number, units: number, at: number): void {
    this.entries.push([2, 0, own, price, units, 0, at]);
  }

  take(): Buffer {
    const out = new VarintWriter();
    out.put(this.entries.length);
    for (let field = 0; field < 7; field += 1) {
      let previous = 0;
      for (const entry of this.entries) {
        out.put(zigzag(entry[field]! - previous));
        previous = entry[field]!;
      }
    }
    this.entries = [];
    return Buffer.concat([Buffer.of(0x4c), brotliCompressSync(out.result())]);
  }
}
