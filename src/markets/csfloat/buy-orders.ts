/**
 * `GET /api/v1/listings/{id}/buy-orders?limit=` (key): the buy orders that would fill one
 * listing, as `[{market_hash_name | expression, hybrid_properties?, price (cents), qty}]`.
 * Orders by plain name form the bid ladder of the asked name; orders with a float/seed
 * `expression` or `hybrid_properties` constraints (float range, paint seeds, paint index,
 * stickers) bid only for some copies of the item and are left out. One public client reports
 * CSFloat refusing these reads from datacenter addresses with "Disable your VPN"
 * (connector-audit.md #4): such a refusal, in a 4xx or in the body, fails the request as
 * `blocked` and says so, never reads as an empty book. Sources: `connector.ts`.
 */
import type { ConnectorRequest, PageResult, ParseContext, RequestFailure } from '../connector.ts';
import {
  ResultBuilder,
  fail,
  isRecord,
  malformedBody,
  readCount,
  readName,
  type Read,
} from '../formats/common.ts';
import { integerPrice } from '../formats/prices.ts';
import {
  BUY_ORDERS_LIMIT,
  askedLimit,
  base,
  isConditionalOrder,
  ladder,
  requestedItem,
} from './shared.ts';

interface Bid {
  price: number;
  quantity: number;
}

/** `qty` per BetterFloat's typings of the live response; `quantity` per other OSS notes. */
function readOrderQuantity(order: Record<string, unknown>): number | null {
  const quantity = readCount(order.qty ?? order.quantity);
  return quantity === null || quantity === 0 ? null : quantity;
}

/** A plain order for the asked name, null for one that is not (conditional, another name). */
function readBid(order: Record<string, unknown>, wanted: string): Read<Bid> | null {
  if (isConditionalOrder(order)) return null;
  const name = readName(order.market_hash_name);
  if (name === null) return fail('malformed', 'neither market_hash_name nor expression');
  if (name !== wanted) return null;
  const price = integerPrice(order.price);
  if (!price.ok) return price;
  const quantity = readOrderQuantity(order);
  if (quantity === null) return fail('malformed', `qty ${JSON.stringify(order.qty)}`);
  return { ok: true, value: { price: price.value, quantity } };
}

const VPN_REFUSAL = /\bvpn\b/i;

function addressRefused(said: string): PageResult['failure'] {
  return {
    kind: 'blocked',
    detail: `CSFloat refuses buy-order reads from this address (${said.slice(0, 120)}): it refuses datacenter and VPN addresses, so bids need a residential one`,
  };
}

/** A 4xx whose text is the VPN refusal is a refusal of this address, not of the key. */
export function reclassifyBuyOrders(
  request: ConnectorRequest,
  failure: RequestFailure,
): PageResult['failure'] | null {
  if (request.kind !== 'buy_orders' || !VPN_REFUSAL.test(failure.detail)) return null;
  return addressRefused(failure.detail);
}

function refusalText(body: unknown): string | null {
  if (!isRecord(body)) return null;
  const said = [body.message, body.error, body.detail].find((text) => typeof text === 'string');
  return typeof said === 'string' && VPN_REFUSAL.test(said) ? said : null;
}

/** The ladder of every plain order; one unreadable order rejects the side (it would be partial). */
export function parseBuyOrders(body: unknown, ctx: ParseContext): PageResult {
  const refused = refusalText(body);
  if (refused !== null) return { observations: [], rejected: [], failure: addressRefused(refused) };
  if (!Array.isArray(body)) return malformedBody('expected an array of buy orders');
  const wanted = requestedItem(ctx);
  if (wanted === null) return malformedBody('buy-orders request names no item');
  const out = new ResultBuilder();
  const bids: Bid[] = [];
  let unreadable = false;
  body.forEach((order, index) => {
    const read = isRecord(order) ? readBid(order, wanted) : fail<Bid>('malformed', 'not an object');
    if (read === null) return;
    if (read.ok) return void bids.push(read.value);
    unreadable = true;
    out.reject(read.rejection, `${wanted} bid #${index}`);
  });
  const complete = body.length < askedLimit(ctx, BUY_ORDERS_LIMIT);
  if (!unreadable && (bids.length > 0 || complete)) {
    const levels = { ok: true as const, value: ladder('bid', bids) };
    const count = complete ? bids.length : null;
    out.side(base(ctx, wanted), 'bid', levels, count, ctx.now, { at: null, kind: null });
  }
  return out.result();
}
