/**
 * Waxpeer's keyless price lists. `GET /v1/prices` gives one row per item name: `min` (lowest ask)
 * and `count` (listings), plus `highest_offer` when asked with `highest_offer=1`. `GET
 * /v1/prices/dopplers` gives one row per Doppler / Gamma Doppler listing with its `phase`,
 * `paint_index` and `float`, which become per-phase ask ladders and listings. Every price is an
 * integer in 1/1000 USD.
 */
import type { RawLevel } from '../../domain/observation.ts';
import type { PageResult, ParseContext } from '../connector.ts';
import {
  addAsk,
  askWithCount,
  nameField,
  namedRows,
  observationBase,
  type AskUnits,
} from '../formats/bulk-asks.ts';
import {
  ResultBuilder,
  isRecord,
  malformedBody,
  readListing,
  readName,
  type Read,
} from '../formats/common.ts';
import { integerPrice } from '../formats/prices.ts';
import { phaseOfPaintIndex, withPhase } from '../naming.ts';
import { splicedPhase } from './names.ts';

export const CURRENCY = 'USD';
export const SCALE = 1000;
export const NO_SOURCE_TIME = { at: null, kind: null };

export const base = observationBase('waxpeer', CURRENCY, SCALE);
const UNITS: AskUnits = { base, price: integerPrice };
const ITEMS = nameField('item', 'name');
const DOPPLERS = nameField('doppler', 'name');

/** `{success: true, items: [...]}`, or why the body is refused whole. */
export function successItems(body: unknown): unknown[] | string {
  if (!isRecord(body)) return 'expected {success, items}';
  if (body.success !== true) {
    const message = typeof body.msg === 'string' ? `: ${body.msg}` : '';
    return `success is ${JSON.stringify(body.success)}${message}`;
  }
  return Array.isArray(body.items) ? body.items : 'items is not an array';
}

/**
 * The best buy offer as a one-level bid side. Absent field: bids unknown (no observation); null
 * or 0: no offer (an empty side); otherwise one level of unknown size.
 */
function highestOffer(row: Record<string, unknown>): Read<RawLevel[]> | undefined {
  if (!Object.hasOwn(row, 'highest_offer')) return undefined;
  const raw = row.highest_offer;
  if (raw === null || raw === 0 || raw === '0') return { ok: true, value: [] };
  const price = integerPrice(raw);
  return price.ok
    ? { ok: true, value: [{ price: price.value, quantity: 1, orders: null }] }
    : price;
}

/**
 * Sample: {"success":true,"items":[{"name":"AK-47 | Redline (Field-Tested)","count":57,
 * "min":10890,"steam_price":"12990","img":"...","type":"Rifle","rarity_color":"#D2D2D2",
 * "highest_offer":10100}]}
 */
export function parsePrices(body: unknown, ctx: ParseContext): PageResult {
  const items = successItems(body);
  if (typeof items === 'string') return malformedBody(items);
  const out = new ResultBuilder();
  namedRows(out, items, ITEMS, (row, name) => {
    const ask = askWithCount(row.min, row.count, 'count');
    addAsk(out, UNITS, name, ask, ctx);
    const bid = ask.ok ? highestOffer(row) : undefined;
    if (bid) out.side(base(ctx, name), 'bid', bid, null, ctx.now, NO_SOURCE_TIME);
  });
  return out.result();
}

/** The phase label of a Doppler row: its `phase`, else its paint index; null when neither reads. */
export function phaseOf(row: Record<string, unknown>): string | null {
  return readName(row.phase) ?? phaseOfPaintIndex(row.paint_index);
}

/** One ladder per phased name: listings grouped by price, cheapest first. */
function ladders(prices: Map<string, number[]>): Map<string, RawLevel[]> {
  const result = new Map<string, RawLevel[]>();
  for (const [name, list] of prices) {
    const byPrice = new Map<number, number>();
    for (const price of list) byPrice.set(price, (byPrice.get(price) ?? 0) + 1);
    const levels = [...byPrice]
      .sort(([a], [b]) => a - b)
      .map(([price, quantity]) => ({ price, quantity, orders: quantity }));
    result.set(name, levels);
  }
  return result;
}

/**
 * Sample: {"success":true,"items":[{"name":"★ Butterfly Knife | Doppler (Factory New)",
 * "item_id":"27253164358","price":1380000,"phase":"Phase 3","steam_price":1453040,
 * "img":"...","weapon":"Butterfly Knife","paint_index":420,"float":0.0460052728652954}]}
 */
export function parseDopplers(body: unknown, ctx: ParseContext): PageResult {
  const items = successItems(body);
  if (typeof items === 'string') return malformedBody(items);
  const out = new ResultBuilder();
  const prices = new Map<string, number[]>();
  namedRows(out, items, DOPPLERS, (row, name, index) => {
    const phase = phaseOf(row);
    const item = withPhase(name, phase);
    if (phase === null || splicedPhase(item) === null) {
      const detail = phase === null ? `no phase for ${name}` : `${name} is no Doppler ${phase}`;
      return out.reject({ reason: 'malformed', detail }, `doppler ${index}`);
    }
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
    const listing = readListing(base(ctx, item), fields, integerPrice, ctx.now);
    out.add(listing, `${item} listing`);
    if (!listing.ok) return;
    const list = prices.get(item);
    if (list) list.push(listing.value.price);
    else prices.set(item, [listing.value.price]);
  });
  for (const [item, levels] of ladders(prices)) {
    const count = levels.reduce((sum, level) => sum + level.quantity, 0);
    const read: Read<RawLevel[]> = { ok: true, value: levels };
    out.side(base(ctx, item), 'ask', read, count, ctx.now, NO_SOURCE_TIME);
  }
  return out.result();
}
