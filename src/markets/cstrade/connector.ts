/**
 * CS.TRADE, a trade-bot site with a public price feed (no official API docs). Facts used:
 * - `GET https://cdn.cs.trade/developer/api/prices_CSGO` and `…/prices_RUST`: no auth, the
 *   developer price list a public client confirmed working in 2026 (connector-audit.md #14).
 *   The older `cdn.cs.trade:2096/api/prices_*` that SCMM reads needs its certificate checks
 *   switched off and browser headers (SCMM commit f6f2eedd, Nov 2023), so it is not used.
 * - Body: an object keyed by item name, each value `{price, store_price, have, max, can_take,
 *   tradable, reservable, available_stock}`, prices decimal US dollars (SCMM
 *   `CSTradeItemPrice.cs` for `price`/`have`; SCMM `UpdateMarketItemPricesFromCSTrade.cs`
 *   "Prices are returned in USD by default"). That client calls `price` cs.trade's reference
 *   valuation; what the store sells at is `store_price`, so the ask is `store_price` and
 *   `price` is never used as an ask [?: no documentation settles it]. A row without a readable
 *   `store_price` is refused; a feed where every row lacks it fails as `no_data` with that
 *   reason, never priced from the valuation. `have` is the bots' stock.
 * - Doppler phases are spliced into the names (csgotrader's `remove_phase_from_name` on every
 *   name containing "Doppler"); names pass through unchanged and ingest resolves them.
 * - Cloudflare fronts the site (connector-audit.md #14): a challenge page fails the request as
 *   `blocked` (the shared HTTP client), never as prices.
 * - Limits: none published. One request per poll, so both games at the 10-minute cadence use
 *   2 per 10 minutes; the budget allows 4 (24 an hour). SCMM reads it every 30 minutes.
 * Not in the feed, so left out: bids, sales, listings and floats. The price is what the bots
 * ask in site balance; SCMM records a 50% bonus on cash deposits (`MarketType.cs`,
 * `BonusBalanceMultiplier`), a fee-table matter not applied here.
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
const NOT_A_ROW = 'not {store_price, have}';
const NO_STORE_PRICE =
  'no store_price (price is a reference valuation, not what the store sells at)';

const PRICES: KeyedAsks = {
  base: observationBase('cstrade', CURRENCY, SCALE),
  price: decimalPrice(SCALE),
  label: 'prices',
  noName: 'empty item name',
  ask: (row) => {
    if (!isRecord(row)) return fail('malformed', NOT_A_ROW);
    if (row.store_price === undefined) return fail('malformed', NO_STORE_PRICE);
    return askWithCount(row.store_price, row.have, NOT_A_ROW);
  },
};

/**
 * Sample: {"AK-47 | Redline (Field-Tested)":{"price":13.9,"store_price":14.87,"have":6,
 * "tradable":6,"reservable":0,"can_take":6,"max":15,"available_stock":9}}
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
    docsUrl:
      'https://github.com/Steam-Community-Market-Manager/SCMM/tree/main/SCMM.Market.CSTrade.Client',
    baseUrl: 'https://cdn.cs.trade',
    limits: [{ requests: 4, windowMs: 10 * MINUTE }],
    credentials: [],
    supplies: 'asks (bot price, bot stock) for every item the bots hold',
  },
  requests: (ctx) => [bulkGet('prices', ctx.game, `/developer/api/prices_${APP[ctx.game]}`)],
  parsers: { prices: parsePrices },
  maxRequestsPerPoll: 1,
};
