/**
 * CS.TRADE, a trade-bot site with a public price feed. Facts used:
 * - `GET https://cdn.cs.trade/developer/api/prices_CSGO` and `…/prices_RUST`: no auth, the
 *   developer price list of CS.TRADE's own developers page (cs.trade/developers, seen
 *   2026-11-29) and of a public client confirmed working in 2026 (connector-audit.md #14).
 *   The older `cdn.cs.trade:2096/api/prices_*` that SCMM reads needs its certificate checks
 *   switched off and browser headers (SCMM commit f6f2eedd, Nov 2023), so it is not used.
 * - Body (the developers page's example): an object keyed by market_hash_name, each value
 *   `{price, store_price, have, tradable, reservable, can_take, max, available_lowest_price,
 *   available_lowest_store_price, available_stock, …}`, prices decimal US dollars. Per that
 *   page `price` is the base trade valuation and `store_price` the base real-cash price, both
 *   before float, pattern and trade-lock bonuses; the `available_*` fields are the lowest final
 *   price of the item available now and the current stock. So the ask is
 *   `available_lowest_store_price` (the cheapest unit's real-cash price: $180.58 where the base
 *   `store_price` says $164.16 in the example) with `available_stock` listings. A row without it
 *   is refused (a feed where every row lacks it fails as `no_data` with that reason), never
 *   priced from a base price; a row whose `available_stock` is 0 is an empty ask.
 * - Doppler phases are spliced into the names (csgotrader's `remove_phase_from_name` on every
 *   name containing "Doppler"); names pass through unchanged and ingest resolves them.
 * - Cloudflare fronts the site (connector-audit.md #14): a challenge page fails the request as
 *   `blocked` (the shared HTTP client), never as prices.
 * - Limits: none published. One request per poll, so both games at the 10-minute cadence use
 *   2 per 10 minutes; the budget allows 4 (24 an hour). SCMM reads it every 30 minutes.
 * Not in the feed, so left out: bids, sales, listings and floats. The ask is a real-cash
 * price; the trade side's site balance (SCMM records a 50% bonus on cash deposits,
 * `MarketType.cs`, `BonusBalanceMultiplier`) is a fee-table matter not applied here.
 */
import { MINUTE } from '../../domain/clock.ts';
import type { Game } from '../../domain/games.ts';
import type { Connector, PageResult, ParseContext } from '../connector.ts';
import {
  askWithCount,
  bulkGet,
  keyedAsks,
  observationBase,
  type KeyedAsks,
} from '../formats/bulk-asks.ts';
import { fail, isRecord, malformedBody } from '../formats/common.ts';
import { decimalPrice } from '../formats/prices.ts';

const CURRENCY = 'USD';
const SCALE = 100;
const APP: Readonly<Record<Game, string>> = { cs2: 'CSGO', rust: 'RUST' };
const NOT_A_ROW = 'not {available_lowest_store_price, available_stock}';
const NO_STORE_PRICE =
  'no available_lowest_store_price (store_price and price are base prices before float and pattern bonuses, not what the cheapest unit sells at)';

const PRICES: KeyedAsks = {
  base: observationBase('cstrade', CURRENCY, SCALE),
  price: decimalPrice(SCALE),
  label: 'prices',
  noName: 'empty item name',
  ask: (row) => {
    if (!isRecord(row)) return fail('malformed', NOT_A_ROW);
    const price = row.available_lowest_store_price;
    if (price === undefined && row.available_stock !== 0) return fail('malformed', NO_STORE_PRICE);
    return askWithCount(price, row.available_stock, NOT_A_ROW);
  },
};

/**
 * Sample: {"AK-47 | Redline (Field-Tested)":{"price":13.9,"store_price":14.87,"have":6,
 * "available_lowest_price":14.1,"available_lowest_store_price":15.08,"available_stock":6}}
 */
export function parsePrices(body: unknown, ctx: ParseContext): PageResult {
  if (!isRecord(body)) return malformedBody('expected an object keyed by item name');
  return keyedAsks(body, PRICES, ctx);
}

export const connector: Connector = {
  info: {
    id: 'cstrade',
    displayName: 'CS.TRADE',
    games: ['cs2', 'rust'],
    currency: CURRENCY,
    scale: SCALE,
    cadenceMs: 10 * MINUTE,
    capabilities: { asks: true, bids: false, sales: false, listings: false, floats: false },
    docsUrl: 'https://cs.trade/developers',
    baseUrl: 'https://cdn.cs.trade',
    limits: [{ requests: 4, windowMs: 10 * MINUTE }],
    credentials: [],
    supplies: "asks (the cheapest unit's cash price, stock) for every item the bots hold",
  },
  requests: (ctx) => [bulkGet('prices', ctx.game, `/developer/api/prices_${APP[ctx.game]}`)],
  parsers: { prices: parsePrices },
  maxRequestsPerPoll: 1,
};
