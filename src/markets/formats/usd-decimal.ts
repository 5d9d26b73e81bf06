/**
 * The USD-decimal bulk format, shared by markets that publish one price row per name in
 * decimal dollars. Modelled on Market.CSGO `GET https://market.csgo.com/api/v2/prices/USD.json`
 * (docs https://market.csgo.com/en/api): `{success, time (unix s), currency, items[]}` with
 * `{market_hash_name, price ("12.34"), volume (listings)}`. The same shape carries rust.tm,
 * CS.Deals `GetLowestPrices`, Lis-Skins and White.market exports, RustSkins and the trade-bot
 * stores once their adapter maps names. Optional per row: `buy_order` (best bid, decimal or
 * null = no orders) and `buy_volume`; `ask`/`bid` ladders of `{price, count}` (Market.CSGO
 * `bid-ask`); `history` of `{price, time (unix s)}` sales; `listings` named as White.market's
 * export names them (`float`, `paint_seed`, `paint_index`, `phase`, `inspect_link`).
 *
 * Sample:
 * {"success":true,"time":1793500000,"currency":"USD","items":[
 *  {"market_hash_name":"AK-47 | Redline (Field-Tested)","price":"11.02","volume":"83",
 *   "buy_order":"10.21","buy_volume":14,
 *   "history":[{"price":"10.90","time":1793499000}],
 *   "listings":[{"id":"5531","price":"11.02","float":0.2011,"paint_seed":442,"paint_index":282,
 *     "phase":null,"inspect_link":null,"stickers":[]}]}]}
 */
import type { ParseResult } from '../market-adapter.ts';
import { MINOR_UNITS } from '../../domain/money.ts';
import type { ObservationBase, RawLevel } from '../../domain/observation.ts';
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
  type PriceReader,
  type Read,
  type SourceTime,
} from './common.ts';
import { decimalPrice } from './prices.ts';

export interface DecimalLevel {
  price: string;
  count: number;
}

export interface DecimalListing {
  id: string;
  price: string;
  float: number | null;
  paint_seed: number | null;
  paint_index: number | null;
  phase: string | null;
  inspect_link: string | null;
  stickers: { name: string }[];
}

export interface UsdDecimalItem {
  market_hash_name: string;
  price: string;
  volume: string | number;
  buy_order?: string | null;
  buy_volume?: number;
  ask?: DecimalLevel[];
  bid?: DecimalLevel[];
  history?: { price: string; time: number }[];
  listings?: DecimalListing[];
}

export interface UsdDecimalBody {
  success: boolean;
  time: number;
  currency: string;
  items: UsdDecimalItem[];
}

const LADDER = { price: 'price', quantity: 'count', orders: null };

export function parseUsdDecimal(body: unknown, ctx: FormatContext): ParseResult {
  if (!isRecord(body) || body.success !== true || !Array.isArray(body.items)) {
    return malformedBody('expected {success: true, items: [...]}');
  }
  const currency = body.currency ?? 'USD';
  const scale = typeof currency === 'string' ? MINOR_UNITS[currency] : undefined;
  if (typeof currency !== 'string' || scale === undefined) {
    return {
      observations: [],
      rejected: [{ reason: 'wrong_unit', detail: `currency ${String(currency)}` }],
    };
  }
  const time = { at: readUnixSeconds(body.time), kind: 'generated_at' };
  const reader = decimalPrice(scale);
  const out = new ResultBuilder();
  body.items.forEach((row, index) => {
    parseItem(row, index, { currency, scale, reader, time }, ctx, out);
  });
  return out.result();
}

interface Units {
  currency: string;
  scale: number;
  reader: PriceReader;
  time: SourceTime;
}

function parseItem(
  row: unknown,
  index: number,
  units: Units,
  ctx: FormatContext,
  out: ResultBuilder,
): void {
  const name = isRecord(row) ? readName(row.market_hash_name) : null;
  if (!isRecord(row) || name === null) {
    return out.reject({ reason: 'malformed', detail: 'no market_hash_name' }, `item ${index}`);
  }
  const volume = readCount(row.volume);
  if (volume === null) return out.reject({ reason: 'malformed', detail: 'volume' }, name);
  const { currency, scale, reader, time } = units;
  const base: ObservationBase = { game: ctx.game, market: ctx.market, item: name, currency, scale };
  const asks =
    row.ask === undefined
      ? topLevel(row.price, volume, reader)
      : readLevels(row.ask, 'ask', reader, LADDER);
  out.side(base, 'ask', asks, volume, ctx.now, time);
  const bids = readBids(row, reader);
  if (bids) out.side(base, 'bid', bids, readCount(row.buy_volume), ctx.now, time);
  for (const sale of Array.isArray(row.history) ? row.history : []) {
    const entry = isRecord(sale) ? sale : {};
    out.add(
      readSale(base, entry.price, undefined, readUnixSeconds(entry.time), reader),
      `${name} sale`,
    );
  }
  for (const listing of Array.isArray(row.listings) ? row.listings : []) {
    const entry = isRecord(listing) ? listing : {};
    const fields = {
      id: entry.id,
      price: entry.price,
      floatValue: entry.float,
      paintSeed: entry.paint_seed,
      paintIndex: entry.paint_index,
      phase: entry.phase,
      inspectLink: entry.inspect_link,
      stickers: entry.stickers,
    };
    out.add(readListing(base, fields, reader, ctx.now), `${name} listing`);
  }
}

/** The bid side when the row says anything about bids; undefined when it does not. */
function readBids(row: Record<string, unknown>, reader: PriceReader): Read<RawLevel[]> | undefined {
  if (row.bid !== undefined) return readLevels(row.bid, 'bid', reader, LADDER);
  if (row.buy_order === undefined) return undefined;
  return topLevel(row.buy_order, row.buy_order === null ? 0 : 1, reader);
}
