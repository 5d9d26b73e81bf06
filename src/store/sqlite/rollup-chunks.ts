/**
 * A closed 10-minute bucket's rows in chunks (issue 31): a fold writes the market rows of
 * CHUNK_SERIES consecutive series ids as ONE loose row, keyed (bucket, chunkKey: a series below
 * 0), its entries deflated in the `ask` column, so a bucket costs its compressed sections instead
 * of a B-tree cell and a key per series. A series' own row (an aggregate's, rows of earlier
 * releases, an unpacked page) wins over its entry in a chunk; the fold writes a row back where
 * it found it.
 *
 * Before deflate: the entry count, then per entry (series order) its series less the chunk's
 * first and the lengths of its ask, bid and sales sections (0: none), then each entry's sections
 * back to back, so a read points its reader at them. 64 series a chunk: a range read inflates
 * one chunk per bucket for one series (with 256 a 181-day read of an open day took 52 ms instead
 * of 3, most of it inflating and decoding the other series).
 */
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { RollupCodecError, SectionReader } from '../rollup-codec.ts';
import { VarintWriter } from '../varint-writer.ts';
import { SECTION_BITS } from './page-format.ts';

export const CHUNK_SERIES = 64;
export const chunkKey = (series: number) => -1 - Math.floor(series / CHUNK_SERIES);
export const firstOfChunk = (key: number) => (-1 - key) * CHUNK_SERIES;

type Blob = Buffer | null;
export type ChunkEntry = [ask: Blob, bid: Blob, sales: Blob];
export type ChunkEntries = Map<number, ChunkEntry>;

export function encodeChunk(entries: ChunkEntries): Buffer {
  const series = [...entries.keys()].sort((a, b) => a - b);
  const [head, sections] = [new VarintWriter(series.length * 4 + 8), new VarintWriter(1024)];
  head.put(series.length);
  for (const id of series) {
    head.put(id % CHUNK_SERIES);
    for (const section of entries.get(id)!) {
      head.put(section?.length ?? 0);
      if (section) sections.putBytes(section);
    }
  }
  return deflateRawSync(Buffer.concat([head.result(), sections.result()]));
}

/** A chunk's body and per entry, five numbers: its series, where its sections start in the
 * body, and their three lengths. */
function openChunk(key: number, blob: Uint8Array): { body: Buffer; index: number[] } {
  const body = inflateRawSync(blob);
  const reader = new SectionReader().begin(body);
  const [count, index] = [reader.next(), [] as number[]];
  for (let entry = 0; entry < count; entry += 1) {
    const series = firstOfChunk(key) + reader.next();
    index.push(series, 0, reader.next(), reader.next(), reader.next());
  }
  let at = reader.offset();
  for (let i = 0; i < index.length; i += 5) {
    index[i + 1] = at;
    at += index[i + 2]! + index[i + 3]! + index[i + 4]!;
  }
  if (at !== body.length) throw new RollupCodecError('rollup chunk is cut or runs on');
  return { body, index };
}

export function decodeChunk(key: number, blob: Uint8Array): ChunkEntries {
  const { body, index } = openChunk(key, blob);
  const entries: ChunkEntries = new Map();
  for (let i = 0; i < index.length; i += 5) {
    let at = index[i + 1]!;
    const take = (length: number) => (length === 0 ? null : body.subarray(at, (at += length)));
    entries.set(index[i]!, [take(index[i + 2]!), take(index[i + 3]!), take(index[i + 4]!)]);
  }
  return entries;
}

/** Where `series`' sections lie in a chunk, as a range read hands a row over: their
 * SECTION_BITS, the body and the offset; null when the chunk has none of it. */
export function chunkRow(key: number, blob: Uint8Array, series: number) {
  const { body, index } = openChunk(key, blob);
  for (let i = 0; i < index.length; i += 5) {
    if (index[i] !== series) continue;
    const has = (at: number, bit: number) => (index[i + at]! > 0 ? bit : 0);
    const bits = has(2, SECTION_BITS.ask) | has(3, SECTION_BITS.bid) | has(4, SECTION_BITS.sales);
    return { bits, body, at: index[i + 1]! };
  }
  return null;
}
