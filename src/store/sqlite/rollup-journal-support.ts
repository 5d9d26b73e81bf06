/**
 * Test support: journal blobs of the row format the releases before issue 31's columns wrote
 * (FORMAT 0x4a: the first entry's time, then per entry a head of kind and market code, the two
 * series, price, size, quantity and the zigzag of its time minus the first, all varints), so
 * tests can check that they still replay and fold after an upgrade.
 */
import { marketCode } from '../../domain/market-codes.ts';
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
