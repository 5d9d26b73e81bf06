/**
 * Skinport items: `GET https://api.skinport.com/v1/items?app_id=730&currency=EUR` (no auth,
 * 8 requests / 5 min, cached 5 min; docs https://docs.skinport.com/items). A bare array of rows
 * with decimal prices in the row's `currency` (EUR by default; scale 100) and `updated_at` in
 * unix seconds. Asks only: `min_price` is the cheapest listing, `quantity` the listing count.
 *
 * Sales: Skinport publishes sold events on its socket.io `saleFeed`; an adapter buffers them and
 * hands them over with the items as `{items, sales}` (the bundle below). Each sale is
 * `{market_hash_name, currency, price (decimal), sold_at (unix seconds)}` (our record shape).
 *
 * Sample:
 * [{"market_hash_name":"AK-47 | Redline (Field-Tested)","currency":"EUR","suggested_price":11.2,
 *   "item_page":"https://skinport.com/item/...","market_page":"https://skinport.com/market?...",
 *   "min_price":10.05,"max_price":48,"mean_price":13.91,"median_price":11.5,"quantity":112,
 *   "created_at":1535988253,"updated_at":1793500000}]
 */
import type { ParseResult } from '../market-adapter.ts';
import { MINOR_UNITS } from '../../domain/money.ts';
import type { ObservationBase } from '../../domain/observation.ts';
import {
  ResultBuilder,
  isRecord,
  malformedBody,
  readCount,
  readName,
  readSale,
  readUnixSeconds,
  topLevel,
  type FormatContext,
} from './common.ts';
import { decimalPrice } from './prices.ts';

export interface SkinportItem {
  market_hash_name: string;
  currency: string;
  suggested_price: number | null;
  item_page: string;
  market_page: string;
  min_price: number | null;
  max_price: number | null;
  mean_price: number | null;
  median_price: number | null;
  quantity: number;
  created_at: number;
  updated_at: number;
}

export interface SkinportSale {
  market_hash_name: string;
  currency: string;
  price: number;
  sold_at: number;
}

export type SkinportItemsBody = SkinportItem[];

export interface SkinportBundle {
  items: SkinportItemsBody;
  sales: SkinportSale[];
}

function baseFor(name: string, currency: unknown, ctx: FormatContext): ObservationBase | string {
  if (typeof currency !== 'string' || MINOR_UNITS[currency] === undefined) {
    return `unknown currency ${JSON.stringify(currency)}`;
  }
  return {
    game: ctx.game,
    market: ctx.market,
    item: name,
    currency,
    scale: MINOR_UNITS[currency],
  };
}

export function parseSkinportItems(body: unknown, ctx: FormatContext): ParseResult {
  const items = Array.isArray(body) ? body : isRecord(body) ? body.items : undefined;
  if (!Array.isArray(items)) return malformedBody('expected an items array');
  const out = new ResultBuilder();
  items.forEach((row, index) => parseItem(row, index, ctx, out));
  const sales = isRecord(body) ? body.sales : undefined;
  if (Array.isArray(sales)) sales.forEach((sale, index) => parseSale(sale, index, ctx, out));
  return out.result();
}

function parseItem(row: unknown, index: number, ctx: FormatContext, out: ResultBuilder): void {
  const name = isRecord(row) ? readName(row.market_hash_name) : null;
  if (!isRecord(row) || name === null) {
    return out.reject({ reason: 'malformed', detail: 'no market_hash_name' }, `item ${index}`);
  }
  const base = baseFor(name, row.currency, ctx);
  if (typeof base === 'string') return out.reject({ reason: 'wrong_unit', detail: base }, name);
  const quantity = readCount(row.quantity);
  if (quantity === null) return out.reject({ reason: 'malformed', detail: 'quantity' }, name);
  const asks = topLevel(row.min_price, quantity, decimalPrice(base.scale));
  const time = { at: readUnixSeconds(row.updated_at), kind: 'updated_at' };
  out.side(base, 'ask', asks, quantity, ctx.now, time);
}

function parseSale(sale: unknown, index: number, ctx: FormatContext, out: ResultBuilder): void {
  const name = isRecord(sale) ? readName(sale.market_hash_name) : null;
  if (!isRecord(sale) || name === null) {
    return out.reject({ reason: 'malformed', detail: 'no market_hash_name' }, `sale ${index}`);
  }
  const base = baseFor(name, sale.currency, ctx);
  if (typeof base === 'string') return out.reject({ reason: 'wrong_unit', detail: base }, name);
  const soldAt = readUnixSeconds(sale.sold_at);
  out.add(readSale(base, sale.price, undefined, soldAt, decimalPrice(base.scale)), `${name} sale`);
}
