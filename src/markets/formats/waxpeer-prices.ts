/**
 * Waxpeer: `GET https://api.waxpeer.com/v1/prices?game=csgo&minified=1` (docs
 * https://api.waxpeer.com/docs). Prices are integer 1/1000 USD (`min: 12500` = $12.50; SCMM
 * `UpdateMarketItemPricesFromWaxpeer.cs` divides by 10 for cents). `count` is the listing count.
 * Depth comes from `POST /v1/mass-info` (≤50 names): per name `listings[]` (with `float`,
 * `paint_index`, `phase`), `orders[]` (buy orders) and `history[]` (recent sales). An adapter
 * hands both over as `{prices, massInfo}`; a bare prices body is accepted too. Bids exist only
 * for names in `massInfo` (others: unknown, so no bid observation). The `history` entry shape
 * `{price, sold_at (unix seconds)}` is our assumption.
 *
 * Sample:
 * {"prices":{"success":true,"items":[{"name":"AK-47 | Redline (Field-Tested)","count":57,
 *   "min":10890,"steam_price":12990,"img":"...","type":"Rifle"}]},
 *  "massInfo":{"success":true,"data":{"AK-47 | Redline (Field-Tested)":{
 *   "listings":[{"item_id":"29876","price":10890,"float":0.2312,"paint_index":282,"phase":null,
 *     "paint_seed":12}],
 *   "orders":[{"price":10100,"amount":3}],"history":[{"price":10750,"sold_at":1793500000}]}}}}
 */
import type { ParseResult } from '../market-adapter.ts';
import type { ObservationBase } from '../../domain/observation.ts';
import {
  ResultBuilder,
  isRecord,
  malformedBody,
  readCount,
  readLevels,
  readListing,
  readName,
  readSale,
  readUnixSeconds,
  topLevel,
  type FormatContext,
} from './common.ts';
import { integerPrice } from './prices.ts';

export interface WaxpeerPriceItem {
  name: string;
  count: number;
  min: number;
  steam_price?: number;
  img?: string;
  type?: string;
}

export interface WaxpeerPricesBody {
  success: boolean;
  items: WaxpeerPriceItem[];
}

export interface WaxpeerListing {
  item_id: string;
  price: number;
  float: number | null;
  paint_index: number | null;
  paint_seed: number | null;
  phase: string | null;
}

export interface WaxpeerDepth {
  listings: WaxpeerListing[];
  orders: { price: number; amount: number }[];
  history: { price: number; sold_at: number }[];
}

export interface WaxpeerMassInfoBody {
  success: boolean;
  data: Record<string, WaxpeerDepth>;
}

export interface WaxpeerBundle {
  prices: WaxpeerPricesBody;
  massInfo: WaxpeerMassInfoBody | null;
}

export const WAXPEER_CURRENCY = 'USD';
export const WAXPEER_SCALE = 1000;
const NO_SOURCE_TIME = { at: null, kind: null };

export function parseWaxpeerPrices(body: unknown, ctx: FormatContext): ParseResult {
  const prices = isRecord(body) && isRecord(body.prices) ? body.prices : body;
  if (!isRecord(prices) || prices.success !== true || !Array.isArray(prices.items)) {
    return malformedBody('expected {success: true, items: [...]}');
  }
  const massInfo = isRecord(body) && isRecord(body.massInfo) ? body.massInfo : null;
  const depth = massInfo && isRecord(massInfo.data) ? massInfo.data : {};
  const out = new ResultBuilder();
  prices.items.forEach((row, index) => parseItem(row, index, depth, ctx, out));
  return out.result();
}

function parseItem(
  row: unknown,
  index: number,
  depth: Record<string, unknown>,
  ctx: FormatContext,
  out: ResultBuilder,
): void {
  const name = isRecord(row) ? readName(row.name) : null;
  if (!isRecord(row) || name === null) {
    return out.reject({ reason: 'malformed', detail: 'no name' }, `item ${index}`);
  }
  const count = readCount(row.count);
  if (count === null) return out.reject({ reason: 'malformed', detail: 'count' }, name);
  const base: ObservationBase = {
    game: ctx.game,
    market: ctx.market,
    item: name,
    currency: WAXPEER_CURRENCY,
    scale: WAXPEER_SCALE,
  };
  out.side(base, 'ask', topLevel(row.min, count, integerPrice), count, ctx.now, NO_SOURCE_TIME);
  const info = Object.hasOwn(depth, name) ? depth[name] : undefined;
  if (isRecord(info)) parseDepth(info, base, ctx.now, out);
}

function parseDepth(
  info: Record<string, unknown>,
  base: ObservationBase,
  now: number,
  out: ResultBuilder,
): void {
  const orders = Array.isArray(info.orders) ? info.orders : [];
  const bids = readLevels(orders, 'bid', integerPrice, {
    price: 'price',
    quantity: 'amount',
    orders: null,
  });
  out.side(base, 'bid', bids, orders.length, now, NO_SOURCE_TIME);
  for (const sale of Array.isArray(info.history) ? info.history : []) {
    const soldAt = isRecord(sale) ? readUnixSeconds(sale.sold_at) : null;
    const price = isRecord(sale) ? sale.price : undefined;
    out.add(readSale(base, price, undefined, soldAt, integerPrice), `${base.item} sale`);
  }
  for (const listing of Array.isArray(info.listings) ? info.listings : []) {
    const row = isRecord(listing) ? listing : {};
    const fields = {
      id: row.item_id,
      price: row.price,
      floatValue: row.float,
      paintSeed: row.paint_seed,
      paintIndex: row.paint_index,
      phase: row.phase,
      inspectLink: null,
      stickers: [],
    };
    out.add(readListing(base, fields, integerPrice, now), `${base.item} listing`);
  }
}
