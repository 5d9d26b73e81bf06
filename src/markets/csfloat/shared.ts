/**
 * CSFloat pieces every parser and the request plan share: units, the observation base, the
 * phase of a CSFloat item (its `paint_index`, else its `phase` label) and the requests the
 * parsers chain to. Facts and their sources: the module comment of `connector.ts`.
 */
import type { RawLevel, Side } from '../../domain/observation.ts';
import type { ConnectorRequest, ParseContext } from '../connector.ts';
import { observationBase } from '../formats/bulk-asks.ts';
import { isRecord, readName } from '../formats/common.ts';
import { phaseOfPaintIndex, withPhase } from '../naming.ts';

export const CURRENCY = 'USD';
export const SCALE = 100;
export const API = '/api/v1';
export const KEY_ENV = 'PRICING_CSFLOAT_API_KEY';
export const AUTH_HEADER = 'Authorization';
/** Listings per page: the documented maximum. */
export const LISTINGS_LIMIT = 50;
/** Buy orders asked per listing (the web UI asks 10; OSS clients ask 10 or 20). */
export const BUY_ORDERS_LIMIT = 20;

export const base = observationBase('csfloat', CURRENCY, SCALE);

/** The phase label of a CSFloat item: from `paint_index` first, else its own `phase` text. */
export function phaseOf(item: Record<string, unknown>): string | null {
  return phaseOfPaintIndex(item.paint_index) ?? readName(item.phase);
}

/** The item's name with its Doppler phase spliced in (unchanged for every other item). */
export function nameWithPhase(name: string, phase: string | null): string {
  return phase === null ? name : withPhase(name, phase);
}

/** The item the parser was asked about (`meta.item`), if the request named one. */
export function requestedItem(ctx: ParseContext): string | null {
  return readName(ctx.request.meta?.item);
}

/** The page size the request asked for (a shorter page is the whole answer). */
export function askedLimit(ctx: ParseContext, fallback: number): number {
  const limit = Number(ctx.request.query?.limit);
  return Number.isSafeInteger(limit) && limit > 0 ? limit : fallback;
}

/** Orders that carry a float/seed/sticker `expression` or `hybrid_properties` constraints. */
export function isConditionalOrder(order: Record<string, unknown>): boolean {
  const expression = order.expression;
  const hasExpression =
    (typeof expression === 'string' && expression.trim() !== '') || isRecord(expression);
  const hybrid = order.hybrid_properties;
  return hasExpression || (isRecord(hybrid) && Object.keys(hybrid).length > 0);
}

/** Listings or orders (one each) grouped by price into a ladder, best first. */
export function ladder(
  side: Side,
  entries: Iterable<{ price: number; quantity: number }>,
): RawLevel[] {
  const byPrice = new Map<number, { price: number; quantity: number; orders: number }>();
  for (const { price, quantity } of entries) {
    const level = byPrice.get(price) ?? { price, quantity: 0, orders: 0 };
    level.quantity += quantity;
    level.orders += 1;
    byPrice.set(price, level);
  }
  const levels = [...byPrice.values()];
  return levels.sort(side === 'ask' ? (a, b) => a.price - b.price : (a, b) => b.price - a.price);
}

/** The follow-up for a listing's bid ladder, carrying the listings request's credential. */
export function buyOrdersRequest(
  listings: ConnectorRequest,
  listingId: string,
  item: string,
): ConnectorRequest {
  return {
    kind: 'buy_orders',
    game: listings.game,
    method: 'GET',
    path: `${API}/listings/${encodeURIComponent(listingId)}/buy-orders`,
    query: { limit: BUY_ORDERS_LIMIT },
    ...(listings.headers ? { headers: listings.headers } : {}),
    ...(listings.secret ? { secret: listings.secret } : {}),
    timeoutMs: 20_000,
    meta: { item, listing: listingId },
  };
}

/** ISO-8601 timestamps (`2021-06-13T20:45:21.311794Z`) to ms epoch; null when unreadable. */
export function readIsoTime(value: unknown): number | null {
  if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}T/.test(value)) return null;
  const at = Date.parse(value);
  return Number.isFinite(at) ? at : null;
}
