/**
 * A closed 10-minute bucket's market rows in chunks of CHUNK_SERIES series, each one loose row
 * keyed chunkKey with its entries deflated in `ask` (docs/history-storage.md, "Rollups,
 * maintained on write"). Before deflate: the entry count, then per entry its series less the
 * chunk's first and its ask, bid and sales lengths (0: none), then each entry's sections.
 */
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { RollupCodecError, SectionReader } from '../rollup-codec.ts';
import { VarintWriter } from '../varint-writer.ts';
import { SECTION_BITS, type Sections } from './page-format.ts';

export const CHUNK_SERIES = 64;
export const chunkKey = (series: number) => -1 - Math.floor(series / CHUNK_SERIES);
export const firstOfChunk = (key: number) => (-1 - key) * CHUNK_SERIES;

export type ChunkEntries = Map<number, Sections>;

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
  for (let entry = 0; entry < count; entry += 1)
    index.push(firstOfChunk(key) + reader.next(), 0, reader.next(), reader.next(), reader.next());
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
