/**
 * CSFloat (CS2 only; every price in integer USD cents). Facts used, with their sources:
 * - Origin `https://csfloat.com/api/v1`; the key goes in a bare `Authorization: <API-KEY>`
 *   header (`csfloat/docs:source/index.html.md`, "Authentication").
 * - `GET /listings/price-list` → `[{market_hash_name, min_price, qty}]`: lowest buy-now price
 *   (cents) and listing count per name (`softwerk-org/csinvest-connector:
 *   src/connector/csfloat/models/get_pricelist.py`, which also calls it without a key).
 *   `GET /listings/price-list/doppler` → `{data: [{market_hash_name, paint_index, min_price}]}`
 *   per Doppler phase; the official extension reads both and caches them for 2 hours
 *   (`csfloat/extension:src/lib/services/price_fetcher.ts`). Neither is in the official docs.
 *   The extension sends its login cookie and maps a 401 to "not authenticated", so keyless
 *   access is [oss] only: with a key set we send it on these too.
 * - Paint index → phase (415 Ruby, 418–421 Phase 1–4, …): `csfloat/extension:
 *   src/lib/utils/dopplers.ts`, the table behind `naming.ts`. Listings also carry
 *   `item.phase` (`GODrums/BetterFloat:src/lib/@typings/FloatTypes.d.ts`), used when the paint
 *   index is not in the table; the Doppler list's `phase_name` likewise
 *   (`flomtz/csgoskinflip:server/collector/markets/csfloat.go`).
 * - `GET /listings?market_hash_name=&sort_by=lowest_price&type=buy_now&limit=50`: `limit` max 50,
 *   `cursor` pagination, `price` in cents, `item{float_value, paint_seed, paint_index,
 *   inspect_link, stickers[{name}]}` (official docs, "Get All Listings"). The docs show a bare
 *   array; the live answer is `{data, cursor}` (BetterFloat `ListingsResponse`; csinvest
 *   `Listings`): both are read.
 * - `GET /listings/{id}/buy-orders?limit=` → `[{market_hash_name | expression,
 *   hybrid_properties?, price, qty}]`, the orders that would fill that listing; orders with an
 *   `expression` are float/seed-conditional (BetterFloat `BuyOrderData`; OSS clients in public
 *   code filter them the same way); `hybrid_properties` carry float, seed, paint-index or sticker
 *   constraints, so those orders are left out too. Not in the official docs; the maximum
 *   `limit` is unknown (OSS clients ask 10 or 20: we ask 20). A refusal naming a VPN
 *   (datacenter addresses, per one OSS proxy tester) fails as `blocked` with that reason.
 * - `GET /history/{market_hash_name}/sales` → sold listings `[{id, price, sold_at, state, item}]`
 *   (BetterFloat `HistorySalesData`). Not in the official docs; every client found sends the
 *   key (markets.md says [oss] it works without), so we only ask with the key.
 * Limits: none published. OSS notes describe an IP pool ("N requests per 5 minutes") and
 * per-endpoint account pools announced in response headers; one OSS guide says 60/min per IP
 * [?]. We assume far less: 30 requests per 5 minutes for the whole origin. A poll is 2 bulk
 * requests, plus with a key 3 listings, 3 buy-orders and 3 sales requests: at most 11. At a
 * 3-minute cadence at most 2 polls start in any 5 minutes (22 ≤ 30), 20 an hour (≤ 220/h; 40/h
 * without a key). The extension refreshes its bulk copy only every 2 hours; 3 minutes keeps our
 * asks fresh while asking for the two large lists 40 times an hour, as conditional GETs.
 * No body carries an update time (no `sourceUpdatedAt`). For priority names the listings'
 * ladder, read after the bulk lists, replaces the price list's one-level ask in the same poll.
 * Left out: auctions (their price is a bid, not an ask), listing pages past the 50 cheapest,
 * conditional buy orders, `/history/{name}/graph` daily averages (sales are single), and
 * per-item requests for more than the top 3 priorities (budget). Phase-spliced priority names
 * are asked by their plain Steam name (CSFloat has no phased names).
 */
import { MINUTE } from '../../domain/clock.ts';
import type { Connector, ConnectorRequest, PollContext } from '../connector.ts';
import { bulkGet } from '../formats/bulk-asks.ts';
import { parseBuyOrders, reclassifyBuyOrders } from './buy-orders.ts';
import { parseListings } from './listings.ts';
import { parseDopplerPriceList, parsePriceList } from './price-list.ts';
import { parseSales } from './sales.ts';
import { API, AUTH_HEADER, CURRENCY, KEY_ENV, LISTINGS_LIMIT, SCALE } from './shared.ts';

/** Priority names given listings (+ buy orders) and sales requests each poll. */
const PER_ITEM = 3;

const SPLICED_PHASE =
  /^(.*\| (?:Gamma )?Doppler) (?:Phase [1-4]|Ruby|Sapphire|Black Pearl|Emerald)( \([^()]+\))?$/;

/** CSFloat's own name for a catalog name: the phase taken back out of a Doppler variant. */
function plainName(name: string): string {
  const match = SPLICED_PHASE.exec(name);
  return match ? `${match[1]}${match[2] ?? ''}` : name;
}

function topItems(priorities: readonly string[]): string[] {
  const names = new Set<string>();
  for (const name of priorities) {
    if (names.size === PER_ITEM) break;
    names.add(plainName(name));
  }
  return [...names];
}

type Auth = Pick<ConnectorRequest, 'headers' | 'secret'>;

function bulk(kind: string, path: string, auth: Auth): ConnectorRequest {
  return { ...bulkGet(kind, 'cs2', path), ...auth };
}

function listings(name: string, auth: Auth): ConnectorRequest {
  return {
    kind: 'listings',
    game: 'cs2',
    method: 'GET',
    path: `${API}/listings`,
    query: {
      market_hash_name: name,
      sort_by: 'lowest_price',
      type: 'buy_now',
      limit: LISTINGS_LIMIT,
    },
    ...auth,
    timeoutMs: 20_000,
    meta: { item: name },
  };
}

function sales(name: string, auth: Auth): ConnectorRequest {
  return {
    kind: 'sales',
    game: 'cs2',
    method: 'GET',
    path: `${API}/history/${encodeURIComponent(name)}/sales`,
    ...auth,
    timeoutMs: 20_000,
    meta: { item: name },
  };
}

function requests(ctx: PollContext): ConnectorRequest[] {
  if (ctx.game !== 'cs2') return [];
  const key = ctx.credentials[KEY_ENV];
  const auth: Auth = key ? { headers: { [AUTH_HEADER]: key }, secret: [AUTH_HEADER] } : {};
  const plan = [
    bulk('price_list', `${API}/listings/price-list`, auth),
    bulk('doppler_price_list', `${API}/listings/price-list/doppler`, auth),
  ];
  if (!key) return plan;
  const items = topItems(ctx.priorities);
  return [
    ...plan,
    ...items.map((name) => listings(name, auth)),
    ...items.map((name) => sales(name, auth)),
  ];
}

export const connector: Connector = {
  info: {
    id: 'csfloat',
    displayName: 'CSFloat',
    games: ['cs2'],
    currency: CURRENCY,
    scale: SCALE,
    cadenceMs: 3 * MINUTE,
    capabilities: { asks: true, bids: true, sales: true, listings: true, floats: true },
    docsUrl: 'https://docs.csfloat.com/',
    baseUrl: 'https://csfloat.com',
    limits: [{ requests: 30, windowMs: 5 * MINUTE }],
    credentials: [
      {
        env: KEY_ENV,
        required: false,
        purpose:
          'listings with float/seed/phase, ask and bid ladders and sales for the top priority items',
      },
    ],
    supplies:
      'asks (lowest price, listing count) for every item and Doppler phase; with a key: listings with floats and phases, ask/bid ladders and sales for priority items',
  },
  requests,
  reclassify: reclassifyBuyOrders,
  parsers: {
    price_list: parsePriceList,
    doppler_price_list: parseDopplerPriceList,
    listings: parseListings,
    buy_orders: parseBuyOrders,
    sales: parseSales,
  },
  maxRequestsPerPoll: 2 + 3 * PER_ITEM,
};
