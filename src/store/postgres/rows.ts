/**
 * Record <-> PostgreSQL mapping. Writes go column-wise: one array per column, bound as one
 * parameter each and turned back into rows server-side by unnest(), so a 10k-row batch is a
 * single statement. Reads come back in array row mode, in the column orders of statements.ts.
 */
import { readFetchFailure } from '../../domain/fetch-failure.ts';
import type { Game } from '../../domain/games.ts';
import type { MarketId } from '../../domain/markets.ts';
import type { FetchRecord, ListingRecord, SaleRecord, SideSnapshot } from '../../domain/quote.ts';
import { encodeLevelsTransient } from '../level-codec.ts';
import type { Intern } from '../row-decoding.ts';
export { saleFromRow, sideFromRow, type SaleRow, type SideRow } from '../row-decoding.ts';
import { arrayLiteral } from './array-literal.ts';
import type { ElementKind } from './array-literal.ts';

/** One bind parameter: a PostgreSQL array literal holding a column of the batch. */
export type Column = string;
export type Field<T> = [ElementKind, (record: T) => unknown];

/** Keeps the last record per key, so a multi-row ON CONFLICT DO UPDATE never meets a key twice. */
export function lastPerKey<T>(records: readonly T[], key: (record: T) => string): T[] {
  const byKey = new Map<string, T>();
  for (const record of records) byKey.set(key(record), record);
  return [...byKey.values()];
}

export const sideKey = (side: SideSnapshot): string =>
  `${side.game}\u0000${side.market}\u0000${side.itemId}\u0000${side.side}`;

export const listingKey = (listing: ListingRecord): string =>
  `${listing.game}\u0000${listing.market}\u0000${listing.listingId}`;

export function columns<T>(records: readonly T[], fields: Array<Field<T>>): Column[] {
  return fields.map(([kind, field]) => arrayLiteral(kind, records, field));
}

/**
 * Column order of UPSERT_SIDES. Levels are encoded here, so a float level throws before any
 * I/O; the transient encoding is safe because each is printed as hex before the next encode.
 */
export function sideColumns(sides: readonly SideSnapshot[]): Column[] {
  return columns(sides, [
    ['text', (s) => s.game],
    ['text', (s) => s.market],
    ['text', (s) => s.itemId],
    ['text', (s) => s.side],
    ['bytea', (s) => encodeLevelsTransient(s.levels)],
    ['number', (s) => s.listingCount],
    ['number', (s) => s.totalQuantity],
    ['number', (s) => s.fetchedAt],
    ['number', (s) => s.ingestedAt],
    ['number', (s) => s.sourceUpdatedAt],
    ['text', (s) => s.sourceTimeKind],
    ['text', (s) => s.originalCurrency],
  ]);
}

/** Column order of INSERT_SALES. */
export function saleColumns(sales: readonly SaleRecord[]): Column[] {
  return columns(sales, [
    ['text', (s) => s.game],
    ['text', (s) => s.itemId],
    ['number', (s) => s.soldAt],
    ['text', (s) => s.market],
    ['number', (s) => s.price],
    ['number', (s) => s.quantity],
    ['number', (s) => s.ingestedAt],
    ['text', (s) => s.originalCurrency],
  ]);
}

/** Column order of UPSERT_LISTINGS. Stickers travel as JSON text, cast to jsonb. */
export function listingColumns(listings: readonly ListingRecord[]): Column[] {
  return columns(listings, [
    ['text', (l) => l.game],
    ['text', (l) => l.market],
    ['text', (l) => l.listingId],
    ['text', (l) => l.itemId],
    ['number', (l) => l.price],
    ['number', (l) => l.floatValue],
    ['number', (l) => l.paintSeed],
    ['number', (l) => l.paintIndex],
    ['text', (l) => l.phase],
    ['text', (l) => l.inspectLink],
    ['text', (l) => JSON.stringify(l.stickers)],
    ['boolean', (l) => l.isStatTrak],
    ['number', (l) => l.fetchedAt],
    ['number', (l) => l.ingestedAt],
    ['text', (l) => l.originalCurrency],
  ]);
}

/** Column order of INSERT_FETCHES. */
export function fetchColumns(records: readonly FetchRecord[]): Column[] {
  return columns(records, [
    ['text', (r) => r.market],
    ['text', (r) => r.game],
    ['number', (r) => r.startedAt],
    ['number', (r) => r.fetchedAt],
    ['number', (r) => r.ingestedAt],
    ['boolean', (r) => r.ok],
    ['text', (r) => r.errorKind],
    ['number', (r) => r.observationCount],
    ['number', (r) => r.rejectedCount],
    ['text', (r) => r.failure],
    ['text', (r) => r.detail],
    ['number', (r) => r.unmappedCount],
  ]);
}

/** LISTING_COLUMNS order in statements.ts. */
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
  stickers: string[],
  isStatTrak: boolean,
  fetchedAt: number,
  ingestedAt: number,
  originalCurrency: string,
];

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
    stickers: row[10],
    isStatTrak: row[11],
    fetchedAt: row[12],
    ingestedAt: row[13],
    originalCurrency: intern(row[14]),
  };
}

/** FETCH_COLUMNS order in statements.ts. */
export type FetchRow = [
  market: MarketId,
  game: Game,
  startedAt: number,
  fetchedAt: number,
  ingestedAt: number | null,
  ok: boolean,
  errorKind: FetchRecord['errorKind'],
  observationCount: number,
  rejectedCount: number,
  failure: string | null,
  detail: string | null,
  unmappedCount: number,
];

export function fetchFromRow(row: FetchRow): FetchRecord {
  return {
    market: row[0],
    game: row[1],
    startedAt: row[2],
    fetchedAt: row[3],
    ingestedAt: row[4],
    ok: row[5],
    errorKind: row[6],
    observationCount: row[7],
    rejectedCount: row[8],
    failure: readFetchFailure(row[9]),
    detail: row[10],
    unmappedCount: row[11],
  };
}
