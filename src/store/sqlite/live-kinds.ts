/**
 * The two kinds of latest record the SQLite live log holds (live-log.ts): listings, keyed by
 * listing id within their (game, market), and sales statistics, keyed by item and window. A
 * record is stored as a row (a JSON array, items by their side_items code), the rows of one
 * log entry or snapshot deflated together. Each kind says which rows replace a stored one, by
 * the rules of live-writes.ts.
 */
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import type { Game } from '../../domain/games.ts';
import type { MarketId } from '../../domain/markets.ts';
import type { SalesWindow } from '../../domain/observation.ts';
import type { ListingRecord, SalesStatsRecord } from '../../domain/quote.ts';
import { LISTING_CONFIRM_MS } from '../live-writes.ts';

export type LiveRow = unknown[];

/** What the writer keeps of a stored row: its fetch time and a hash of its content. */
export interface Print {
  at: number;
  sum: number;
}

export interface LiveKind<R> {
  name: 'listings' | 'stats';
  /** Index of the row's fetchedAt: the key and content come before it, ingestedAt after. */
  atIndex: number;
  keyOf(row: LiveRow): string;
  rowOf(record: R, code: number): LiveRow;
  recordOf(row: LiveRow, game: Game, market: MarketId, itemId: string): R;
  /** The row's item code. */
  codeOf(row: LiveRow): number;
  /** Whether a row fetched at `at` with content hash `sum` replaces the stored `held`. */
  replaces(held: Print | undefined, at: number, sum: number): boolean;
}

export const LISTINGS: LiveKind<ListingRecord> = {
  name: 'listings',
  atIndex: 11,
  keyOf: (row) => row[0] as string,
  codeOf: (row) => row[1] as number,
  rowOf: (l, code) => [
    l.listingId,
    code,
    l.price,
    l.floatValue,
    l.paintSeed,
    l.paintIndex,
    l.phase,
    l.inspectLink,
    l.stickers,
    l.isStatTrak ? 1 : 0,
    l.originalCurrency,
    l.fetchedAt,
    l.ingestedAt,
  ],
  recordOf: (row, game, market, itemId) => ({
    game,
    itemId,
    market,
    listingId: row[0] as string,
    price: row[2] as number,
    floatValue: row[3] as number | null,
    paintSeed: row[4] as number | null,
    paintIndex: row[5] as number | null,
    phase: row[6] as string | null,
    inspectLink: row[7] as string | null,
    stickers: row[8] as string[],
    isStatTrak: row[9] === 1,
    originalCurrency: row[10] as string,
    fetchedAt: row[11] as number,
    ingestedAt: row[12] as number,
  }),
  replaces: (held, at, sum) =>
    held === undefined || at >= held.at + LISTING_CONFIRM_MS || (at >= held.at && sum !== held.sum),
};

export const SALES_STATS: LiveKind<SalesStatsRecord> = {
  name: 'stats',
  atIndex: 8,
  keyOf: (row) => `${row[0] as number} ${row[1] as string}`,
  codeOf: (row) => row[0] as number,
  rowOf: (s, code) => [
    code,
    s.window,
    s.volume,
    s.minPrice,
    s.maxPrice,
    s.avgPrice,
    s.medianPrice,
    s.originalCurrency,
    s.fetchedAt,
    s.ingestedAt,
  ],
  recordOf: (row, game, market, itemId) => ({
    game,
    market,
    itemId,
    window: row[1] as SalesWindow,
    volume: row[2] as number,
    minPrice: row[3] as number | null,
    maxPrice: row[4] as number | null,
    avgPrice: row[5] as number | null,
    medianPrice: row[6] as number | null,
    originalCurrency: row[7] as string,
    fetchedAt: row[8] as number,
    ingestedAt: row[9] as number,
  }),
  replaces: (held, at, sum) => held === undefined || (at >= held.at && sum !== held.sum),
};

/** A 53-bit hash of the row's key and content (everything before its fetchedAt). */
export function contentSum(atIndex: number, row: LiveRow): number {
  const text = JSON.stringify(row.slice(0, atIndex));
  let low = 0xdeadbeef;
  let high = 0x41c6ce57;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    low = Math.imul(low ^ code, 2654435761);
    high = Math.imul(high ^ code, 1597334677);
  }
  low = Math.imul(low ^ (low >>> 16), 2246822507) ^ Math.imul(high ^ (high >>> 13), 3266489909);
  high = Math.imul(high ^ (high >>> 16), 2246822507) ^ Math.imul(low ^ (low >>> 13), 3266489909);
  return 4294967296 * (0x1fffff & high) + (low >>> 0);
}

export function encodeRows(rows: readonly LiveRow[]): Buffer {
  return deflateRawSync(JSON.stringify(rows), { level: 1 });
}

export function decodeRows(blob: Buffer): LiveRow[] {
  return blob.length === 0 ? [] : (JSON.parse(inflateRawSync(blob).toString()) as LiveRow[]);
}
