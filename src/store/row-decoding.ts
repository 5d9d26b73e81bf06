/**
 * Decoding of stored book sides and sales, shared by the SQLite and PostgreSQL stores: both
 * select the same columns in the same order. (Listings differ by dialect: JSON text and 0/1 in
 * SQLite, arrays and booleans in PostgreSQL.)
 */
import type { Game } from '../domain/games.ts';
import type { MarketId } from '../domain/markets.ts';
import type { Side } from '../domain/observation.ts';
import type { SaleRecord, SideSnapshot } from '../domain/quote.ts';
import { StringPool } from '../domain/string-pool.ts';
import { decodeLevels } from './level-codec.ts';
import type { ChunkVisitor } from './price-store.ts';

export type Intern = <T extends string | null>(value: T) => T;

export function stringInterner(): Intern {
  const pool = new StringPool();
  return <T extends string | null>(value: T): T =>
    value === null ? value : (pool.intern(value as string) as T);
}

/** Hands what is pushed to `visit` `size` at a time; `finish()` hands the rest, the count. */
export class ChunkedVisit<T> {
  private chunk: T[] = [];
  private count = 0;
  constructor(
    private readonly visit: ChunkVisitor<T>,
    private readonly size: number,
  ) {}

  push(item: T): void {
    this.chunk.push(item);
    if (this.chunk.length < this.size) return;
    this.count += this.chunk.length;
    this.visit(this.chunk);
    this.chunk = [];
  }

  finish(): number {
    if (this.chunk.length > 0) this.visit(this.chunk);
    return this.count + this.chunk.length;
  }
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
