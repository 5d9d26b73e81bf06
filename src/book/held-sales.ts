/**
 * The sales the book holds for one game: per item one Float64Array of fixed-width rows (sold
 * at, ingested at, price, quantity, market and currency codes), oldest sale first. The book keeps
 * 90 days (210k sales on the default start two minutes in, about 410k after the first backfill).
 * As one record each, with their two times boxed, they were a third of the HTTP thread's heap
 * objects, and every full collection marked them all; as rows they are one array per item.
 * Reads rebuild an item's records.
 */
import type { Game } from '../domain/games.ts';
import type { MarketId } from '../domain/markets.ts';
import type { SaleRecord } from '../domain/quote.ts';
import { StringTable } from './string-table.ts';

const SOLD_AT = 0;
const INGESTED_AT = 1;
const PRICE = 2;
const QUANTITY = 3;
const MARKET = 4;
const CURRENCY = 5;
const WIDTH = 6;
const FIRST_ROWS = 4;

interface ItemSales {
  rows: Float64Array;
  count: number;
}

export class HeldSales {
  private readonly items = new Map<string, ItemSales>();
  private readonly strings = new StringTable();

  /** @param retentionMs sales older than the item's newest by more than this are dropped. */
  constructor(
    private readonly game: Game,
    private readonly retentionMs: number,
  ) {}

  /** Holds a sale unless a later fetch reported it again; false when it was already held. */
  put(sale: SaleRecord): boolean {
    let held = this.items.get(sale.itemId);
    if (!held) this.items.set(sale.itemId, (held = { rows: emptyRows(), count: 0 }));
    const market = this.strings.intern(sale.market);
    let index = held.count;
    while (index > 0 && soldAt(held, index - 1) > sale.soldAt) index -= 1;
    if (isHeldAtOrBefore(held, index, sale, market)) return false;
    insertRow(held, index, [
      sale.soldAt,
      sale.ingestedAt,
      sale.price,
      sale.quantity,
      market,
      this.strings.intern(sale.originalCurrency),
    ]);
    dropBefore(held, soldAt(held, held.count - 1) - this.retentionMs);
    return true;
  }

  /** One item's sales, oldest first. */
  records(itemId: string): SaleRecord[] {
    const held = this.items.get(itemId);
    if (!held) return [];
    const out = new Array<SaleRecord>(held.count);
    for (let index = 0; index < held.count; index += 1)
      out[index] = this.record(itemId, held, index);
    return out;
  }

  private record(itemId: string, held: ItemSales, index: number): SaleRecord {
    const at = index * WIDTH;
    const { rows } = held;
    return {
      game: this.game,
      itemId,
      market: this.strings.at(rows[at + MARKET]!) as MarketId,
      price: rows[at + PRICE]!,
      quantity: rows[at + QUANTITY]!,
      soldAt: rows[at + SOLD_AT]!,
      ingestedAt: rows[at + INGESTED_AT]!,
      originalCurrency: this.strings.at(rows[at + CURRENCY]!) as string,
    };
  }
}

const emptyRows = () => new Float64Array(FIRST_ROWS * WIDTH);
const soldAt = (held: ItemSales, index: number) => held.rows[index * WIDTH + SOLD_AT]!;

/** A sale reported again by a later fetch: same market, time, price and quantity. */
function isHeldAtOrBefore(held: ItemSales, index: number, sale: SaleRecord, market: number) {
  const { rows } = held;
  for (let i = index - 1; i >= 0 && soldAt(held, i) === sale.soldAt; i -= 1) {
    const at = i * WIDTH;
    if (
      rows[at + MARKET] === market &&
      rows[at + PRICE] === sale.price &&
      rows[at + QUANTITY] === sale.quantity
    ) {
      return true;
    }
  }
  return false;
}

function insertRow(held: ItemSales, index: number, row: readonly number[]): void {
  if ((held.count + 1) * WIDTH > held.rows.length) {
    const grown = new Float64Array(held.rows.length * 2);
    grown.set(held.rows.subarray(0, held.count * WIDTH));
    held.rows = grown;
  }
  const at = index * WIDTH;
  held.rows.copyWithin(at + WIDTH, at, held.count * WIDTH);
  held.rows.set(row, at);
  held.count += 1;
}

function dropBefore(held: ItemSales, horizon: number): void {
  let drop = 0;
  while (drop < held.count && soldAt(held, drop) < horizon) drop += 1;
  if (drop === 0) return;
  held.rows.copyWithin(0, drop * WIDTH, held.count * WIDTH);
  held.count -= drop;
}
