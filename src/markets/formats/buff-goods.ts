/**
 * Buff163 goods list: `GET https://buff.163.com/api/market/goods?game=csgo&page_num=&page_size=80`
 * (session cookie). Prices are CNY decimal strings (scale 100 = fen). Field names follow
 * softwerk-org/csinvest-connector:src/connector/buff163/models/get_market_goods.py; the per-row
 * ladders, sales and listings are what an adapter collects from `goods/sell_order`,
 * `goods/buy_order` and `goods/bill_order` (SCMM `SCMM.Market.Buff.Client/BuffWebClient.cs`).
 * `sell_num` counts listings, `buy_num` buy orders; `"0"` with a zero count means none.
 *
 * Sample:
 * {"code":"OK","msg":null,"data":{"page_num":1,"page_size":80,"total_page":1,"total_count":1,
 *  "items":[{"id":33906,"market_hash_name":"AK-47 | Redline (Field-Tested)",
 *   "sell_min_price":"77.5","buy_max_price":"74","sell_num":1204,"buy_num":310,
 *   "sell_orders":[{"price":"77.5","num":3},{"price":"78","num":5}],
 *   "buy_orders":[{"price":"74","num":12}],
 *   "bill_orders":[{"price":"76","transact_time":1793500000}],
 *   "sell_listings":[{"id":"230901T1","price":"77.5","asset_info":{"paintwear":"0.2154",
 *     "paintseed":661,"paintindex":282,"phase":null,"stickers":[{"name":"Titan | Katowice 2014"}],
 *     "inspect_url":"steam://rungame/730/..."}}]}]}}
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
import { decimalPrice } from './prices.ts';

export interface BuffLevel {
  price: string;
  num: number;
}

export interface BuffSellListing {
  id: string;
  price: string;
  asset_info: {
    paintwear: string;
    paintseed: number | null;
    paintindex: number | null;
    /** The Doppler phase tag's name ("Phase 2", "Ruby"); Buff selects it with `tag_ids`. */
    phase: string | null;
    stickers: { name: string }[];
    inspect_url: string | null;
  };
}

export interface BuffGoodsItem {
  id: number;
  market_hash_name: string;
  sell_min_price: string;
  buy_max_price: string;
  sell_num: number;
  buy_num: number;
  sell_orders?: BuffLevel[];
  buy_orders?: BuffLevel[];
  bill_orders?: { price: string; transact_time: number }[];
  sell_listings?: BuffSellListing[];
}

export interface BuffGoodsBody {
  code: string;
  msg: string | null;
  data: {
    items: BuffGoodsItem[];
    page_num: number;
    page_size: number;
    total_page: number;
    total_count: number;
  };
}

export const BUFF_CURRENCY = 'CNY';
export const BUFF_SCALE = 100;
const cny = decimalPrice(BUFF_SCALE);
const LADDER = { price: 'price', quantity: 'num', orders: null };
const NO_SOURCE_TIME = { at: null, kind: null };

export function parseBuffGoods(body: unknown, ctx: FormatContext): ParseResult {
  if (!isRecord(body)) return malformedBody('body is not an object');
  if (body.code !== 'OK') return malformedBody(`response code ${JSON.stringify(body.code)}`);
  const data = body.data;
  if (!isRecord(data) || !Array.isArray(data.items)) return malformedBody('no data.items array');
  const out = new ResultBuilder();
  data.items.forEach((row, index) => parseRow(row, index, ctx, out));
  return out.result();
}

function parseRow(row: unknown, index: number, ctx: FormatContext, out: ResultBuilder): void {
  const name = isRecord(row) ? readName(row.market_hash_name) : null;
  if (!isRecord(row) || name === null) {
    return out.reject({ reason: 'malformed', detail: 'no market_hash_name' }, `row ${index}`);
  }
  const sellNum = readCount(row.sell_num);
  const buyNum = readCount(row.buy_num);
  if (sellNum === null || buyNum === null) {
    return out.reject({ reason: 'malformed', detail: 'sell_num/buy_num' }, name);
  }
  const base: ObservationBase = {
    game: ctx.game,
    market: ctx.market,
    item: name,
    currency: BUFF_CURRENCY,
    scale: BUFF_SCALE,
  };
  const asks =
    row.sell_orders === undefined
      ? topLevel(row.sell_min_price, sellNum, cny)
      : readLevels(row.sell_orders, 'ask', cny, LADDER);
  const bids =
    row.buy_orders === undefined
      ? topLevel(row.buy_max_price, buyNum, cny)
      : readLevels(row.buy_orders, 'bid', cny, LADDER);
  out.side(base, 'ask', asks, sellNum, ctx.now, NO_SOURCE_TIME);
  out.side(base, 'bid', bids, buyNum, ctx.now, NO_SOURCE_TIME);
  readSales(row.bill_orders, base, out);
  readListings(row.sell_listings, base, ctx.now, out);
}

function readSales(raw: unknown, base: ObservationBase, out: ResultBuilder): void {
  if (!Array.isArray(raw)) return;
  for (const sale of raw) {
    if (!isRecord(sale)) {
      out.reject({ reason: 'malformed', detail: 'sale is not an object' }, base.item);
      continue;
    }
    const soldAt = readUnixSeconds(sale.transact_time);
    out.add(readSale(base, sale.price, undefined, soldAt, cny), `${base.item} sale`);
  }
}

function readListings(raw: unknown, base: ObservationBase, now: number, out: ResultBuilder): void {
  if (!Array.isArray(raw)) return;
  for (const listing of raw) {
    const asset = isRecord(listing) && isRecord(listing.asset_info) ? listing.asset_info : null;
    if (!isRecord(listing) || asset === null) {
      out.reject({ reason: 'malformed', detail: 'listing without asset_info' }, base.item);
      continue;
    }
    const fields = {
      id: listing.id,
      price: listing.price,
      floatValue: asset.paintwear,
      paintSeed: asset.paintseed,
      paintIndex: asset.paintindex,
      phase: asset.phase,
      inspectLink: asset.inspect_url,
      stickers: asset.stickers,
    };
    out.add(readListing(base, fields, cny, now), `${base.item} listing`);
  }
}
