/**
 * Record <-> SQLite row mapping. Bulk reads come back as raw arrays (cheaper than row objects
 * in better-sqlite3) and repeated names are interned. Booleans are 0/1, levels a codec BLOB,
 * stickers JSON text. better-sqlite3 binds neither booleans nor undefined, so every parameter
 * list below holds numbers, strings, Buffers and nulls only.
 */
import type { Game } from '../../domain/games.ts';
import type { MarketId } from '../../domain/markets.ts';
import type { Side } from '../../domain/observation.ts';
import type { FetchRecord, ListingRecord, SaleRecord, SideSnapshot } from '../../domain/quote.ts';
import { decodeLevels, encodeLevelsTransient } from '../level-codec.ts';

type Param = number | string | Buffer | null;

export type Intern = <T extends string | null>(value: T) => T;

/**
 * Returns one shared instance per distinct string. Each row brings fresh copies of the game,
 * market, item id and currency; a loaded book keeps them for its lifetime, so sharing them
 * saves tens of bytes per row (an item id appears once per market and side).
 */
export function stringInterner(): Intern {
  const seen = new Map<string, string>();
  return <T extends string | null>(value: T): T => {
    if (value === null) return value;
    const known = seen.get(value);
    if (known !== undefined) return known as T;
    seen.set(value, value);
    return value;
  };
}

/** Column order of SIDE_COLUMNS in statements.ts. */
export type SideRow = [
  game: Game,
  itemId: string,
  market: MarketId,
  side: Side,
  levels: Buffer,
  listingCount: number | null,
  totalQuantity: number,
  fetchedAt: number,
  ingestedAt: number,
  sourceUpdatedAt: number | null,
  sourceTimeKind: string | null,
  originalCurrency: string,
];

/** Column order of SALE_COLUMNS in statements.ts. */
export type SaleRow = [
  game: Game,
  itemId: string,
  market: MarketId,
  price: number,
  quantity: number,
  soldAt: number,
  ingestedAt: number,
  originalCurrency: string,
];

/** Column order of LISTING_COLUMNS in statements.ts. */
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

export interface FetchRow extends Omit<FetchRecord, 'ok'> {
  ok: number;
}

export function sideParams(side: SideSnapshot): Param[] {
  return [
    side.game,
    side.itemId,
    side.market,
    side.side,
    encodeLevelsTransient(side.levels),
    side.listingCount,
    side.totalQuantity,
    side.fetchedAt,
    side.ingestedAt,
    side.sourceUpdatedAt,
    side.sourceTimeKind,
    side.originalCurrency,
  ];
}

export function sideFromRow(row: SideRow, intern: Intern): SideSnapshot {
  return {
    game: intern(row[0]),
    itemId: intern(row[1]),
    market: intern(row[2]),
    side: intern(row[3]),
    levels: decodeLevels(row[4]),
    listingCount: row[5],
    totalQuantity: row[6],
    fetchedAt: row[7],
    ingestedAt: row[8],
    sourceUpdatedAt: row[9],
    sourceTimeKind: intern(row[10]),
    originalCurrency: intern(row[11]),
  };
}

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

export function saleFromRow(row: SaleRow, intern: Intern): SaleRecord {
  return {
    game: intern(row[0]),
    itemId: intern(row[1]),
    market: intern(row[2]),
    price: row[3],
    quantity: row[4],
    soldAt: row[5],
    ingestedAt: row[6],
    originalCurrency: intern(row[7]),
  };
}

export function listingParams(listing: ListingRecord): Param[] {
  return [
    listing.game,
    listing.market,
    listing.listingId,
    listing.itemId,
    listing.price,
    listing.floatValue,
    listing.paintSeed,
    listing.paintIndex,
    listing.phase,
    listing.inspectLink,
    JSON.stringify(listing.stickers),
    listing.isStatTrak ? 1 : 0,
    listing.fetchedAt,
    listing.ingestedAt,
    listing.originalCurrency,
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
  };
}
