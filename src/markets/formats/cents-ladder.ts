/**
 * The integer-cents ladder format, shared by markets that quote USD cents and expose depth:
 * csfloat (`/api/v1/listings` `price`, `/listings/{id}/buy-orders`; csfloat/docs
 * source/index.html.md), dmarket (`aggregated-prices`, `offers-by-title`, `targets-by-title`,
 * `last-sales`; docs.dmarket.com/v1/swagger.html, cents as strings), steamcommunity
 * (`itemordershistogram` `sell_order_graph`/`buy_order_graph`, cents) and tradeit (inventory
 * `price` in cents). An adapter gathers those endpoints into one body per game:
 * `{currency, updated_at (unix s), items[]}` with ask/bid ladders of `{price, quantity, orders}`,
 * `listing_count`, optional `order_count`, recent `sales` and per-listing data named as CSFloat
 * names it (`float_value`, `paint_seed`, `paint_index`, `is_stattrak`). `bids` absent = unknown,
 * `[]` = no buy orders. Prices may be integers or integer strings; fractions are a unit error.
 *
 * Sample:
 * {"currency":"USD","updated_at":1793500000,"items":[{"market_hash_name":"AK-47 | Redline (Field-Tested)",
 *  "listing_count":412,"order_count":97,
 *  "asks":[{"price":1089,"quantity":2,"orders":2},{"price":1095,"quantity":1,"orders":1}],
 *  "bids":[{"price":1012,"quantity":6,"orders":3}],
 *  "sales":[{"price":1075,"quantity":1,"sold_at":1793499700}],
 *  "listings":[{"id":"81234","price":1089,"float_value":0.2312,"paint_seed":12,"paint_index":282,
 *   "phase":null,"inspect_link":"steam://rungame/730/...","stickers":[],"is_stattrak":false}]}]}
 */
import type { ParseResult } from '../market-adapter.ts';
import { MINOR_UNITS } from '../../domain/money.ts';
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
  type FormatContext,
  type SourceTime,
} from './common.ts';
import { integerPrice } from './prices.ts';

export interface CentsLevel {
  price: number | string;
  quantity: number;
  orders: number | null;
}

export interface CentsListing {
  id: string;
  price: number;
  float_value: number | null;
  paint_seed: number | null;
  paint_index: number | null;
  phase: string | null;
  inspect_link: string | null;
  stickers: { name: string }[];
  is_stattrak: boolean;
}

export interface CentsLadderItem {
  market_hash_name: string;
  listing_count: number;
  order_count?: number | null;
  asks: CentsLevel[];
  bids?: CentsLevel[];
  sales?: { price: number; quantity: number; sold_at: number }[];
  listings?: CentsListing[];
}

export interface CentsLadderBody {
  currency: string;
  updated_at: number;
  items: CentsLadderItem[];
}

const LADDER = { price: 'price', quantity: 'quantity', orders: 'orders' };

export function parseCentsLadder(body: unknown, ctx: FormatContext): ParseResult {
  if (!isRecord(body) || !Array.isArray(body.items)) return malformedBody('no items array');
  const currency = body.currency;
  if (typeof currency !== 'string' || MINOR_UNITS[currency] !== 100) {
    return {
      observations: [],
      rejected: [{ reason: 'wrong_unit', detail: `currency ${String(currency)}` }],
    };
  }
  const time = { at: readUnixSeconds(body.updated_at), kind: 'updated_at' };
  const out = new ResultBuilder();
  body.items.forEach((row, index) => parseItem(row, index, currency, time, ctx, out));
  return out.result();
}

function parseItem(
  row: unknown,
  index: number,
  currency: string,
  time: SourceTime,
  ctx: FormatContext,
  out: ResultBuilder,
): void {
  const name = isRecord(row) ? readName(row.market_hash_name) : null;
  if (!isRecord(row) || name === null) {
    return out.reject({ reason: 'malformed', detail: 'no market_hash_name' }, `item ${index}`);
  }
  const listingCount = readCount(row.listing_count);
  const base: ObservationBase = {
    game: ctx.game,
    market: ctx.market,
    item: name,
    currency,
    scale: 100,
  };
  out.side(
    base,
    'ask',
    readLevels(row.asks, 'ask', integerPrice, LADDER),
    listingCount,
    ctx.now,
    time,
  );
  if (row.bids !== undefined) {
    const bids = readLevels(row.bids, 'bid', integerPrice, LADDER);
    out.side(base, 'bid', bids, readCount(row.order_count), ctx.now, time);
  }
  for (const sale of Array.isArray(row.sales) ? row.sales : []) {
    const entry = isRecord(sale) ? sale : {};
    const soldAt = readUnixSeconds(entry.sold_at);
    out.add(readSale(base, entry.price, entry.quantity, soldAt, integerPrice), `${name} sale`);
  }
  for (const listing of Array.isArray(row.listings) ? row.listings : []) {
    const entry = isRecord(listing) ? listing : {};
    const fields = {
      id: entry.id,
      price: entry.price,
      floatValue: entry.float_value,
      paintSeed: entry.paint_seed,
      paintIndex: entry.paint_index,
      phase: entry.phase,
      inspectLink: entry.inspect_link,
      stickers: entry.stickers,
    };
    out.add(readListing(base, fields, integerPrice, ctx.now), `${name} listing`);
  }
}
