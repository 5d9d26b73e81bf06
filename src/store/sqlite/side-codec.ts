/**
 * The byte form of latest sides in the SQLite side log and its snapshots (side-log.ts,
 * side-snapshot.ts). One blob holds entries of one (game, market): a format byte (raw, or the
 * payload deflated), then the payload: the base time, a table of the strings the entries name
 * (source time kinds, currencies), the entry count and the entries. An entry is its key (item
 * code × 2, + 1 for a bid), a byte of which nullable fields it has, its times as zigzag deltas
 * (fetchedAt from the base, the others from fetchedAt), its counts, its strings by index and
 * its levels in the level codec, copied as they are. Encoding refuses what the table of earlier
 * releases refused (a missing field, a non-integer), so a bad side still fails its batch.
 */
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { decodeLevels, encodeLevelsTransient } from '../level-codec.ts';
import { unzigzag, zigzag } from '../rollup-codec.ts';
import { VarintWriter } from '../varint-writer.ts';
import type { SideSnapshot } from '../../domain/quote.ts';
import type { Intern } from '../row-decoding.ts';

export class SideCodecError extends Error {
  override readonly name = 'SideCodecError';
}

/** One stored side, its item by code (side_items) and its levels as level-codec bytes. */
export interface SideEntry {
  /** item code × 2, + 1 for a bid. */
  key: number;
  levels: Uint8Array;
  listingCount: number | null;
  totalQuantity: number;
  fetchedAt: number;
  ingestedAt: number;
  sourceUpdatedAt: number | null;
  sourceTimeKind: string | null;
  originalCurrency: string;
}

const RAW = 1;
const DEFLATED = 2;
/** Payloads below this are stored raw: deflate's header and dictionary do not pay for them. */
const DEFLATE_FROM_BYTES = 256;
const HAS_LISTING_COUNT = 1;
const HAS_SOURCE_UPDATED = 2;
const HAS_TIME_KIND = 4;

function requireInteger(value: unknown, what: string): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value)) {
    throw new SideCodecError(`side ${what} must be an integer, got ${String(value)}`);
  }
  return value;
}

function requireText(value: unknown, what: string): string {
  if (typeof value !== 'string') throw new SideCodecError(`side ${what} must be text`);
  return value;
}

function nullableInteger(value: unknown, what: string): number | null {
  return value === null ? null : requireInteger(value, what);
}

/** The entry of a side whose item has code `item`; throws SideCodecError on a bad field. */
export function entryOf(side: SideSnapshot, item: number): SideEntry {
  if (side.side !== 'ask' && side.side !== 'bid') {
    throw new SideCodecError(`side must be ask or bid, got ${String(side.side)}`);
  }
  return {
    key: item * 2 + (side.side === 'bid' ? 1 : 0),
    levels: encodeLevelsTransient(side.levels),
    listingCount: nullableInteger(side.listingCount, 'listingCount'),
    totalQuantity: requireInteger(side.totalQuantity, 'totalQuantity'),
    fetchedAt: requireInteger(side.fetchedAt, 'fetchedAt'),
    ingestedAt: requireInteger(side.ingestedAt, 'ingestedAt'),
    sourceUpdatedAt: nullableInteger(side.sourceUpdatedAt, 'sourceUpdatedAt'),
    sourceTimeKind: side.sourceTimeKind === null ? null : requireText(side.sourceTimeKind, 'kind'),
    originalCurrency: requireText(side.originalCurrency, 'originalCurrency'),
  };
}

/** The snapshot an entry stands for, its item named by `itemId`. */
export function sideOf(
  entry: SideEntry,
  chunk: { game: SideSnapshot['game']; market: SideSnapshot['market'] },
  itemId: string,
): SideSnapshot {
  return {
    game: chunk.game,
    itemId,
    market: chunk.market,
    side: entry.key % 2 === 1 ? 'bid' : 'ask',
    levels: decodeLevels(entry.levels),
    listingCount: entry.listingCount,
    totalQuantity: entry.totalQuantity,
    fetchedAt: entry.fetchedAt,
    ingestedAt: entry.ingestedAt,
    sourceUpdatedAt: entry.sourceUpdatedAt,
    sourceTimeKind: entry.sourceTimeKind,
    originalCurrency: entry.originalCurrency,
  };
}

const writer = new VarintWriter(64 * 1024);

function stringTable(entries: readonly SideEntry[]): Map<string, number> {
  const table = new Map<string, number>();
  for (const entry of entries) {
    if (!table.has(entry.originalCurrency)) table.set(entry.originalCurrency, table.size);
    const kind = entry.sourceTimeKind;
    if (kind !== null && !table.has(kind)) table.set(kind, table.size);
  }
  return table;
}

function putEntry(entry: SideEntry, base: number, strings: Map<string, number>): void {
  const flags =
    (entry.listingCount === null ? 0 : HAS_LISTING_COUNT) |
    (entry.sourceUpdatedAt === null ? 0 : HAS_SOURCE_UPDATED) |
    (entry.sourceTimeKind === null ? 0 : HAS_TIME_KIND);
  writer.put(entry.key);
  writer.put(flags);
  writer.put(zigzag(entry.fetchedAt - base));
  writer.put(zigzag(entry.ingestedAt - entry.fetchedAt));
  if (entry.sourceUpdatedAt !== null) writer.put(zigzag(entry.sourceUpdatedAt - entry.fetchedAt));
  if (entry.listingCount !== null) writer.put(zigzag(entry.listingCount));
  writer.put(zigzag(entry.totalQuantity));
  if (entry.sourceTimeKind !== null) writer.put(strings.get(entry.sourceTimeKind)!);
  writer.put(strings.get(entry.originalCurrency)!);
  writer.put(entry.levels.length);
  writer.putBytes(entry.levels);
}

/** Encodes entries into one blob (a fresh Buffer). */
export function encodeEntries(entries: readonly SideEntry[]): Buffer {
  writer.clear();
  const base = entries[0]?.fetchedAt ?? 0;
  const strings = stringTable(entries);
  writer.put(zigzag(base));
  writer.put(strings.size);
  for (const text of strings.keys()) writer.putBytes(Buffer.from(text, 'utf8'), true);
  writer.put(entries.length);
  for (const entry of entries) putEntry(entry, base, strings);
  const payload = writer.result();
  if (payload.length < DEFLATE_FROM_BYTES) return Buffer.concat([Buffer.of(RAW), payload]);
  return Buffer.concat([Buffer.of(DEFLATED), deflateRawSync(payload, { level: 1 })]);
}

class Cursor {
  position = 0;
  constructor(readonly bytes: Uint8Array) {}

  next(): number {
    let value = 0;
    let factor = 1;
    for (;;) {
      const byte = this.bytes[this.position++];
      if (byte === undefined) throw new SideCodecError('truncated side data');
      value += (byte & 0x7f) * factor;
      if (byte < 128) return value;
      factor *= 128;
    }
  }

  take(length: number): Uint8Array {
    const end = this.position + length;
    if (end > this.bytes.length) throw new SideCodecError('truncated side data');
    const slice = this.bytes.subarray(this.position, end);
    this.position = end;
    return slice;
  }
}

function payloadOf(blob: Uint8Array): Uint8Array {
  if (blob[0] === RAW) return blob.subarray(1);
  if (blob[0] === DEFLATED) return inflateRawSync(blob.subarray(1));
  throw new SideCodecError(`unknown side blob format ${blob[0]}`);
}

function readEntry(cursor: Cursor, base: number, strings: string[]): SideEntry {
  const key = cursor.next();
  const flags = cursor.next();
  const fetchedAt = base + unzigzag(cursor.next());
  const ingestedAt = fetchedAt + unzigzag(cursor.next());
  const sourceUpdatedAt = flags & HAS_SOURCE_UPDATED ? fetchedAt + unzigzag(cursor.next()) : null;
  const listingCount = flags & HAS_LISTING_COUNT ? unzigzag(cursor.next()) : null;
  const totalQuantity = unzigzag(cursor.next());
  const sourceTimeKind = flags & HAS_TIME_KIND ? stringAt(strings, cursor.next()) : null;
  const originalCurrency = stringAt(strings, cursor.next());
  const levels = cursor.take(cursor.next());
  return {
    key,
    levels,
    listingCount,
    totalQuantity,
    fetchedAt,
    ingestedAt,
    sourceUpdatedAt,
    sourceTimeKind,
    originalCurrency,
  };
}

function stringAt(strings: string[], index: number): string {
  const text = strings[index];
  if (text === undefined) throw new SideCodecError('side string index out of range');
  return text;
}

/**
 * Decodes a blob; entries' levels are views into the decoded payload, and their strings one
 * copy per blob (or per `intern`).
 */
export function decodeEntries(blob: Uint8Array, intern?: Intern): SideEntry[] {
  const cursor = new Cursor(payloadOf(blob));
  const base = unzigzag(cursor.next());
  const strings: string[] = [];
  for (let count = cursor.next(); count > 0; count--) {
    const text = Buffer.from(cursor.take(cursor.next())).toString('utf8');
    strings.push(intern === undefined ? text : intern(text));
  }
  const entries: SideEntry[] = [];
  for (let count = cursor.next(); count > 0; count--) {
    entries.push(readEntry(cursor, base, strings));
  }
  return entries;
}
