/**
 * CS.TRADE, a trade-bot site with a public price feed (no official API docs). Facts used:
 * - `GET https://cdn.cs.trade:2096/api/prices_CSGO` and `/api/prices_RUST`: no auth (SCMM
 *   `SCMM.Market.CSTrade.Client/CSTradeWebClient.cs`, whose `<see>` names `prices_RUST`;
 *   `gergelyszabo94/csgo-trader-extension:backend/priceScraper/priceScraper.py`
 *   `fetch_cstrade`, at commit `47c12d79^`, reads `prices_CSGO`). The origin is the CDN host on
 *   port 2096. SCMM builds this client with server certificate validation switched off; we do
 *   not, so should the certificate be invalid the poll fails as a transport error.
 * - Body: an object keyed by item name, each value `{price, have, tradable, reservable,
 *   can_take, max}` (SCMM `CSTradeItemPrice.cs`, which copies the key into the name). `price` is
 *   a decimal in US dollars, nullable: SCMM parses it with `SteamPriceAsInt` (dollars to
 *   cents, rounded to 2 places) under "Prices are returned in USD by default"
 *   (`SCMM.Steam.Functions/Timer/UpdateMarketItemPricesFromCSTrade.cs`); csgotrader stores it
 *   as is next to other dollar prices. `have` is the bots' stock, SCMM's supply (no price at
 *   0). `tradable`, `reservable`, `can_take` and `max` are not used.
 * - Doppler phases are spliced into the names (csgotrader's `remove_phase_from_name` on every
 *   name containing "Doppler"); names pass through unchanged and ingest resolves them.
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
const NOT_A_ROW = 'not {price, have}';

const PRICES: KeyedAsks = {
  base: observationBase('cstrade', CURRENCY, SCALE),
  price: decimalPrice(SCALE),
  label: 'prices',
  noName: 'empty item name',
  ask: (row) =>
    isRecord(row) ? askWithCount(row.price, row.have, NOT_A_ROW) : fail('malformed', NOT_A_ROW),
};

/**
 * Sample: {"AK-47 | Redline (Field-Tested)":{"price":14.87,"have":6,"tradable":6,
 * "reservable":0,"can_take":6,"max":15}}
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
    baseUrl: 'https://cdn.cs.trade:2096',
    limits: [{ requests: 4, windowMs: 10 * MINUTE }],
    credentials: [],
    supplies: 'asks (bot price, bot stock) for every item the bots hold',
  },
  requests: (ctx) => [bulkGet('prices', ctx.game, `/api/prices_${APP[ctx.game]}`)],
  parsers: { prices: parsePrices },
  maxRequestsPerPoll: 1,
};
