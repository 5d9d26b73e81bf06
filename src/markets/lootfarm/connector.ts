/**
 * LOOT.FARM, a trade-bot site with a public price list (no official API docs; the site links
 * the list from https://loot.farm/en/pricelist.html). Facts used:
 * - `GET https://loot.farm/fullprice.json` (CS2) and `/fullpriceRUST.json` (Rust): no auth, the
 *   CS2 file has no game suffix ("CSGO is the app name default", SCMM
 *   `SCMM.Market.LootFarm.Client/LootFarmWebClient.cs`). The list "is updated every minute"
 *   (same file). Also read by `gergelyszabo94/csgo-trader-extension:
 *   backend/priceScraper/priceScraper.py` (`fetch_lootfarm`, at commit `47c12d79^`).
 * - Body: an array of `{name, price, have, max, rate, tr, res}` (SCMM `LootFarmItemPrice.cs`).
 *   `price` is an integer in US cents: SCMM reads it as a `long` and feeds it straight to its
 *   cents exchange with "Prices are returned in USD by default", csgotrader divides it by 100
 *   (SCMM `SCMM.Steam.Functions/Timer/UpdateMarketItemPricesFromLootFarm.cs`). `have` is the
 *   bots' stock: SCMM's supply, and no price when it is 0. `max` (how many the bots accept),
 *   `tr`/`res` (tradable / reservable counts) and `rate` are not used.
 * - Names are Steam names, except that Doppler phases are spliced in (`★ Karambit | Doppler
 *   Ruby (Factory New)`, csgotrader splits on `"Doppler "`) and `M4A4 | Emperor` is spelled
 *   without "The" (csgotrader maps it). Both are passed through unchanged: ingest resolves
 *   spliced phases and counts the rest as unmapped.
 * - Limits: none published. The file changes once a minute and a poll reads one file, so at
 *   the 10-minute cadence both games use 2 requests per 10 minutes; the budget allows 4 (24 an
 *   hour) to leave room for retries. SCMM itself reads it every 30 minutes.
 * Not in the file, so left out: bids, sales, listings and floats. The listed price is what
 * the bots ask in site balance; SCMM records a 20% bonus on cash deposits and 30% on crypto
 * (`MarketType.cs`, `BonusBalanceMultiplier`), which is a fee-table matter, not applied here.
 */
import { MINUTE } from '../../domain/clock.ts';
import type { Game } from '../../domain/games.ts';
import type { Connector, PageResult, ParseContext } from '../connector.ts';
import {
  askRows,
  askWithCount,
  bulkGet,
  nameField,
  observationBase,
  type AskRows,
} from '../formats/bulk-asks.ts';
import { malformedBody } from '../formats/common.ts';
import { integerPrice } from '../formats/prices.ts';

const CURRENCY = 'USD';
const SCALE = 100;
const PATH: Readonly<Record<Game, string>> = {
  cs2: '/fullprice.json',
  rust: '/fullpriceRUST.json',
};

const PRICE_ROWS: AskRows = {
  ...nameField('row', 'name'),
  base: observationBase('lootfarm', CURRENCY, SCALE),
  price: integerPrice,
  ask: (row) => askWithCount(row.price, row.have, 'have'),
};

/**
 * Sample: [{"name":"AK-47 | Redline (Field-Tested)","price":1432,"have":5,"max":12,
 * "rate":95,"tr":5,"res":0}]
 */
export function parsePriceList(body: unknown, ctx: ParseContext): PageResult {
  if (!Array.isArray(body)) return malformedBody('expected an array of price rows');
  return askRows(body, PRICE_ROWS, ctx);
}

export const connector: Connector = {
  info: {
    id: 'lootfarm',
    displayName: 'LOOT.FARM',
    games: ['cs2', 'rust'],
    currency: CURRENCY,
    scale: SCALE,
    cadenceMs: 10 * MINUTE,
    capabilities: { asks: true, bids: false, sales: false, listings: false, floats: false },
    docsUrl: 'https://loot.farm/en/pricelist.html',
    baseUrl: 'https://loot.farm',
    limits: [{ requests: 4, windowMs: 10 * MINUTE }],
    credentials: [],
    supplies: 'asks (bot price, bot stock) for every item the bots hold',
  },
  requests: (ctx) => [bulkGet('price_list', ctx.game, PATH[ctx.game])],
  parsers: { price_list: parsePriceList },
  maxRequestsPerPoll: 1,
};
