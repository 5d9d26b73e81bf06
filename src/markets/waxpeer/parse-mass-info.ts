/**
 * Waxpeer's keyed `POST /v1/mass-info` for up to 50 names: per name its live `listings` (item id,
 * price, paint index, Doppler `phase`, `float`) and its buy `orders`. Listings become listing
 * observations under the phased name; orders become a bid ladder (size `amount`, one unit when
 * absent). `history` is ignored: the docs mark it disabled and document no entry shape.
 */
import type { ObservationBase, RawLevel } from '../../domain/observation.ts';
import type { PageResult, ParseContext } from '../connector.ts';
import {
  ResultBuilder,
  fail,
  isRecord,
  malformedBody,
  readCount,
  readListing,
  readName,
  type Read,
} from '../formats/common.ts';
import { integerPrice } from '../formats/prices.ts';
import { withPhase } from '../naming.ts';
import { NO_SOURCE_TIME, base, phaseOf } from './parse-prices.ts';

/** The docs' example nests each listing in an array of its own; accept both shapes. */
function flatListings(raw: unknown): unknown[] {
  return Array.isArray(raw) ? raw.flatMap((entry) => (Array.isArray(entry) ? entry : [entry])) : [];
}

function readListings(raw: unknown, name: string, ctx: ParseContext, out: ResultBuilder): void {
  for (const entry of flatListings(raw)) {
    const row = isRecord(entry) ? entry : {};
    const phase = phaseOf(row);
    const fields = {
      id: row.item_id,
      price: row.price,
      floatValue: row.float,
      paintSeed: null,
      paintIndex: row.paint_index,
      phase,
      inspectLink: null,
      stickers: [],
    };
    const item = withPhase(readName(row.name) ?? name, phase);
    out.add(readListing(base(ctx, item), fields, integerPrice, ctx.now), `${item} listing`);
  }
}

/** Buy orders summed per price, best (highest) first. */
function readOrders(raw: unknown[]): Read<RawLevel[]> {
  const byPrice = new Map<number, RawLevel>();
  for (const order of raw) {
    if (!isRecord(order)) return fail('malformed', 'buy order is not an object');
    const price = integerPrice(order.price);
    if (!price.ok) return price;
    const amount = order.amount === undefined ? 1 : readCount(order.amount);
    if (amount === null || amount === 0) {
      return fail('malformed', `buy order amount ${JSON.stringify(order.amount)}`);
    }
    const level = byPrice.get(price.value) ?? { price: price.value, quantity: 0, orders: 0 };
    byPrice.set(price.value, {
      price: level.price,
      quantity: level.quantity + amount,
      orders: (level.orders ?? 0) + 1,
    });
  }
  return { ok: true, value: [...byPrice.values()].sort((a, b) => b.price - a.price) };
}

/**
 * Sample: {"success":true,"data":{"AK-47 | Redline (Field-Tested)":{"listings":[[{"price":12100,
 * "by":"1247ffd5-…","item_id":"27165625733","name":"AK-47 | Redline (Field-Tested)",
 * "paint_index":282,"steam_price":14100,"classid":"3669724953","image":"…","float":0.2312}]],
 * "orders":[{"price":10100,"amount":3}],"history":[],"info":{}}}}
 */
export function parseMassInfo(body: unknown, ctx: ParseContext): PageResult {
  if (!isRecord(body) || body.success !== true || !isRecord(body.data)) {
    const message = isRecord(body) && typeof body.msg === 'string' ? ` (${body.msg})` : '';
    return malformedBody(`expected {success: true, data: {...}}${message}`);
  }
  const out = new ResultBuilder();
  for (const [name, info] of Object.entries(body.data)) {
    if (readName(name) === null || !isRecord(info)) {
      out.reject({ reason: 'malformed', detail: 'not {listings, orders}' }, `mass-info ${name}`);
      continue;
    }
    readListings(info.listings, name, ctx, out);
    if (Array.isArray(info.orders)) {
      const where: ObservationBase = base(ctx, name);
      out.side(where, 'bid', readOrders(info.orders), info.orders.length, ctx.now, NO_SOURCE_TIME);
    }
  }
  return out.result();
}
