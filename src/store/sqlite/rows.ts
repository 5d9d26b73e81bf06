/**
 * Record <-> SQLite row mapping. Bulk reads come back as raw arrays (cheaper than row objects
 * in better-sqlite3) and repeated names are interned. Booleans are 0/1, levels a codec BLOB,
 * stickers JSON text. better-sqlite3 binds neither booleans nor undefined, so every parameter
 * list below holds numbers, strings, Buffers and nulls only.
 */
import { readFetchFailure } from '../../domain/fetch-failure.ts';
import type { Game } from '../../domain/games.ts';
import type { MarketId } from '../../domain/markets.ts';
import type { FetchRecord, ListingRecord, SaleRecord } from '../../domain/quote.ts';

type Param = number | string | Buffer | null;

/**
 * Returns one shared instance per distinct string. Each row brings fresh copies of the game,
 * market, item id and currency; a loaded book keeps them for its lifetime, so sharing them
 * saves tens of bytes per row (an item id appears once per market and side).
 */

/** Column order of the `listings` table of earlier releases (read once, live-convert.ts). */
export type ListingRow = [
  game: Game,
  itemId: string,
  market: MarketId,
  listingId: string,
  price: number,
  floatValue: number | null,
  paintSeed: number | null,
  paintIndex: number | null,
  phase: string | null,
  inspectLink: string | null,
  stickers: string,
  isStatTrak: number,
  fetchedAt: number,
  ingestedAt: number,
  originalCurrency: string,
];

export interface FetchRow extends Omit<FetchRecord, 'ok' | 'failure'> {
  ok: number;
  failure: string | null;
}

export { saleFromRow, stringInterner, type Intern, type SaleRow } from '../row-decoding.ts';
import type { Intern } from '../row-decoding.ts';

export function saleParams(sale: SaleRecord): Param[] {
  return [
    sale.game,
    sale.itemId,
    sale.soldAt,
    sale.market,
    sale.price,
    sale.quantity,
    sale.ingestedAt,
    sale.originalCurrency,
  ];
}

export function listingFromRow(row: ListingRow, intern: Intern): ListingRecord {
  return {
    game: intern(row[0]),
    itemId: intern(row[1]),
    market: intern(row[2]),
    listingId: row[3],
    price: row[4],
    floatValue: row[5],
    paintSeed: row[6],
    paintIndex: row[7],
    phase: intern(row[8]),
    inspectLink: row[9],
    stickers: JSON.parse(row[10]) as string[],
    isStatTrak: row[11] === 1,
    fetchedAt: row[12],
    ingestedAt: row[13],
    originalCurrency: intern(row[14]),
  };
}

export function fetchParams(record: FetchRecord): Param[] {
  return [
    record.market,
    record.game,
    record.startedAt,
    record.fetchedAt,
    record.ingestedAt,
    record.ok ? 1 : 0,
    record.errorKind,
    record.observationCount,
    record.rejectedCount,
    record.failure,
    record.detail,
    record.unmappedCount,
  ];
}

export function fetchFromRow(row: FetchRow): FetchRecord {
  return {
    market: row.market,
    game: row.game,
    startedAt: row.startedAt,
    fetchedAt: row.fetchedAt,
    ingestedAt: row.ingestedAt,
    ok: row.ok === 1,
    errorKind: row.errorKind,
    observationCount: row.observationCount,
    rejectedCount: row.rejectedCount,
    failure: readFetchFailure(row.failure),
    detail: row.detail,
    unmappedCount: row.unmappedCount,
  };
}
