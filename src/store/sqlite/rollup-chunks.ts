/**
 * A closed 10-minute bucket's rows in chunks (issue 31): a fold writes the rows of CHUNK_SERIES
 * consecutive series ids as ONE loose row, keyed (bucket, chunkKey: a series below 0), its
 * entries deflated in the `ask` column, so a bucket costs its compressed sections instead of a
 * B-tree cell and a key per series. A series' own row (rows of earlier releases, an unpacked
 * page) wins over its entry in a chunk; the fold writes a row back where it found it.
 *
 * Before deflate: the entry count, then per entry (series order) its series less the chunk's
 * first and the lengths of its ask, bid and sales sections (0: none), then every ask, every
 * bid, every sales section, in entry order.
 */
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { RollupCodecError, SectionReader } from '../rollup-codec.ts';
import { VarintWriter } from '../varint-writer.ts';
import { SECTION_BITS } from './page-format.ts';

export const CHUNK_SERIES = 256;
export const chunkKey = (series: number) => -1 - Math.floor(series / CHUNK_SERIES);
export const firstOfChunk = (key: number) => (-1 - key) * CHUNK_SERIES;

type Blob = Buffer | null;
export type ChunkEntry = [ask: Blob, bid: Blob, sales: Blob];
export type ChunkEntries = Map<number, ChunkEntry>;

export function encodeChunk(entries: ChunkEntries): Buffer {
  const series = [...entries.keys()].sort((a, b) => a - b);
  const head = new VarintWriter(series.length * 4 + 8);
  head.put(series.length);
  const sections = [0, 1, 2].map(() => new VarintWriter(series.length * 16));
  for (const id of series) {
    head.put(id % CHUNK_SERIES);
    entries.get(id)!.forEach((section, index) => {
      head.put(section?.length ?? 0);
      if (section) sections[index]!.putBytes(section);
    });
  }
  return deflateRawSync(Buffer.concat([head, ...sections].map((writer) => writer.result())));
}

export function decodeChunk(key: number, blob: Uint8Array): ChunkEntries {
  const body = inflateRawSync(blob);
  const reader = new SectionReader().begin(body);
  const count = reader.next();
  const heads = Array.from({ length: count }, () => [0, 1, 2, 3].map(() => reader.next()));
  let [asks, bids] = [0, 0];
  for (const [, ask, bid] of heads) [asks, bids] = [asks + ask!, bids + bid!];
  const at = [reader.offset(), reader.offset() + asks, reader.offset() + asks + bids];
  const entries: ChunkEntries = new Map();
  const take = (index: number, length: number) =>
    length === 0 ? null : body.subarray(at[index]!, (at[index]! += length));
  for (const [offset, ask, bid, sales] of heads) {
    const entry: ChunkEntry = [take(0, ask!), take(1, bid!), take(2, sales!)];
    entries.set(firstOfChunk(key) + offset!, entry);
  }
  if (at[2] !== body.length) throw new RollupCodecError('rollup chunk is cut or runs on');
  return entries;
}

/** An entry's SECTION_BITS and its sections back to back, as a range read hands a row over. */
export function entryPiece([ask, bid, sales]: ChunkEntry): [bits: number, sections: Buffer] {
  const bits = (ask ? SECTION_BITS.ask : 0) | (bid ? SECTION_BITS.bid : 0);
  const present = [ask, bid, sales].filter((section) => section !== null);
  return [bits | (sales ? SECTION_BITS.sales : 0), Buffer.concat(present)];
}
