/**
 * The order book of one item. Its listing page (HTML) names the item's `item_nameid` in the
 * call `Market_LoadOrderSpread( <id> )`: remembered per (game, name) so later polls ask the
 * histogram directly. The histogram's `sell_order_graph` / `buy_order_graph` are
 * `[price in dollars, CUMULATIVE quantity, text]` points, best first (top 100 levels); each
 * level's own quantity is the difference from the point before it (SCMM
 * `UpdateMarketItemOrders.ParseMarketItemOrdersFromGraph` does the same).
 * `lowest_sell_order` / `highest_buy_order` are integer cents and must equal the top point, a
 * check that the graph is in the unit we think; `sell_order_count` / `buy_order_count` (number
 * or "12,345") are the whole side's totals, beyond the 100 levels shown.
 */
import { HOUR } from '../../domain/clock.ts';
import type { RawLevel, Side } from '../../domain/observation.ts';
import type { PageResult, ParseContext } from '../connector.ts';
import {
  ResultBuilder,
  bookObservation,
  fail,
  isRecord,
  malformedBody,
  type Read,
} from '../formats/common.ts';
import { decimalPrice, integerPrice } from '../formats/prices.ts';
import { histogramRequest, NAMEID_RETRY_MS } from './plan.ts';
import { NO_SOURCE_TIME, SCALE, nameIdKey, requestedName, steamBase } from './steam.ts';
import { readSteamCount } from './steam-text.ts';

const ORDER_SPREAD = /Market_LoadOrderSpread\(\s*(\d+)\s*\)/;
const readGraphPrice = decimalPrice(SCALE);

/** The item_nameid on a listing page, or null. */
export function scrapeItemNameId(html: string): string | null {
  return ORDER_SPREAD.exec(html)?.[1] ?? null;
}

/** Sample: `<script>… Market_LoadOrderSpread( 176000861 ); …</script>` */
export function parseListingPage(body: unknown, ctx: ParseContext): PageResult {
  const name = requestedName(ctx);
  if (name === null) return malformedBody('listing page request without an item name');
  if (typeof body !== 'string') return malformedBody(`${name}: expected the listing page as text`);
  const key = nameIdKey(ctx.game, name);
  const nameId = scrapeItemNameId(body);
  if (nameId === null) {
    const hours = NAMEID_RETRY_MS / HOUR;
    const detail = `${name}: no Market_LoadOrderSpread( id ) on the listing page; retried in ${hours} h`;
    return {
      observations: [],
      rejected: [{ reason: 'malformed', detail }],
      remember: { [key]: `none@${ctx.now}` },
    };
  }
  return {
    observations: [],
    rejected: [],
    remember: { [key]: nameId },
    next: [histogramRequest(ctx.game, name, nameId)],
  };
}

interface SideFields {
  side: Side;
  graph: string;
  best: string;
  count: string;
}

const SIDES: readonly SideFields[] = [
  { side: 'ask', graph: 'sell_order_graph', best: 'lowest_sell_order', count: 'sell_order_count' },
  { side: 'bid', graph: 'buy_order_graph', best: 'highest_buy_order', count: 'buy_order_count' },
];

function outOfOrder(side: Side, price: number, previous: RawLevel | undefined): boolean {
  if (!previous) return false;
  return side === 'ask' ? price <= previous.price : price >= previous.price;
}

/** Cumulative graph points to per-level quantities; one bad point rejects the side. */
export function readCumulativeLadder(raw: unknown, side: Side): Read<RawLevel[]> {
  if (!Array.isArray(raw)) return fail('malformed', `${side} graph is not an array`);
  const levels: RawLevel[] = [];
  let before = 0;
  for (const point of raw) {
    if (!Array.isArray(point)) return fail('malformed', `${side} graph point is not an array`);
    const price = readGraphPrice(point[0]);
    if (!price.ok) return price;
    if (outOfOrder(side, price.value, levels.at(-1))) {
      return fail('malformed', `${side} graph prices out of order at ${price.value}`);
    }
    const total = readSteamCount(point[1]);
    if (total === null || total <= before) {
      return fail(
        'malformed',
        `${side} cumulative quantity ${JSON.stringify(point[1])} after ${before}`,
      );
    }
    levels.push({ price: price.value, quantity: total - before, orders: null });
    before = total;
  }
  return { ok: true, value: levels };
}

interface BookSide {
  levels: RawLevel[];
  count: number | null;
}

/** The side's best-price field must be the graph's first point: a check of the graph's unit. */
function topProblem(levels: RawLevel[], body: Record<string, unknown>, fields: SideFields) {
  const best = body[fields.best];
  if (best === null || best === undefined) return null;
  const top = integerPrice(best);
  if (!top.ok) return top.rejection;
  const first = levels[0]?.price;
  const detail = `${fields.graph} starts at ${first ?? 'nothing'}, ${fields.best} is ${top.value}`;
  if (first === undefined) return { reason: 'malformed' as const, detail };
  return first === top.value ? null : { reason: 'wrong_unit' as const, detail };
}

function readSide(body: Record<string, unknown>, fields: SideFields): Read<BookSide> {
  const levels = readCumulativeLadder(body[fields.graph], fields.side);
  if (!levels.ok) return levels;
  const problem = topProblem(levels.value, body, fields);
  if (problem) return { ok: false, rejection: problem };
  const rawCount = body[fields.count];
  const count = rawCount === null || rawCount === undefined ? null : readSteamCount(rawCount);
  if (count === null && rawCount !== null && rawCount !== undefined) {
    return fail('malformed', `${fields.count} ${JSON.stringify(rawCount)}`);
  }
  return { ok: true, value: { levels: levels.value, count } };
}

/** `price_prefix` / `price_suffix` name the display currency: "$" and "" (or "USD") for USD. */
function currencyProblem(body: Record<string, unknown>): string | null {
  const { price_prefix: prefix, price_suffix: suffix } = body;
  if (prefix === undefined && suffix === undefined) return null;
  const usd =
    typeof prefix === 'string' &&
    prefix.trim() === '$' &&
    (suffix === undefined || (typeof suffix === 'string' && ['', 'USD'].includes(suffix.trim())));
  return usd
    ? null
    : `price_prefix ${JSON.stringify(prefix)}, price_suffix ${JSON.stringify(suffix)}: not USD`;
}

/**
 * Sample: {"success":1,"sell_order_count":"1,187","buy_order_count":"23,562",
 * "highest_buy_order":"3410","lowest_sell_order":"3655",
 * "buy_order_graph":[[34.1,12,"12 buy orders at $34.10 or higher"],…],
 * "sell_order_graph":[[36.55,2,"2 sell orders at $36.55 or lower"],…],
 * "price_prefix":"$","price_suffix":""}
 */
export function parseHistogram(body: unknown, ctx: ParseContext): PageResult {
  const name = requestedName(ctx);
  if (name === null) return malformedBody('histogram request without an item name');
  if (!isRecord(body) || (body.success !== 1 && body.success !== true)) {
    return malformedBody(`${name}: expected {success: 1, …}`);
  }
  const out = new ResultBuilder();
  const unit = currencyProblem(body);
  if (unit) {
    out.reject({ reason: 'wrong_unit', detail: unit }, name);
    return out.result();
  }
  const base = steamBase(ctx, name);
  for (const fields of SIDES) {
    const side = readSide(body, fields);
    if (!side.ok) {
      out.reject(side.rejection, `${name} ${fields.side}`);
      continue;
    }
    const { levels, count } = side.value;
    out.observe(bookObservation(base, fields.side, levels, count, ctx.now, NO_SOURCE_TIME));
  }
  return out.result();
}
