/**
 * CS.Deals (docs: https://cs.deals/API-documentation; no stored copy of that page could be read
 * here, so every fact below comes from the two maintained open-source clients). Facts used:
 * - `GET https://cs.deals/API/IPricing/GetLowestPrices/v1?appid=730|252490` — no auth; answers
 *   `{success, response: {time_updated, appid, items: [{marketname, lowest_price}]}}`,
 *   `time_updated` in unix seconds, `lowest_price` a decimal USD amount, as a string in SCMM
 *   and a number in csinvest (both are read). Nothing says how many listings sit behind a
 *   price, so asks carry `listingCount: null` (SCMM `SCMM.Market.CSDeals.Client/
 *   CSDealsWebClient.cs`, `CSDealsPricingGetLowestPricesResult.cs`, `CSDealsItemPrice.cs`;
 *   `softwerk-org/csinvest-connector:src/connector/csdeals/models/get_lowest_prices.py`, which
 *   POSTs `{appid}` to the same path instead).
 * - USD: "Prices are returned in USD by default" (SCMM `SCMM.Steam.Functions/Timer/
 *   UpdateMarketItemPricesFromCSDeals.cs`), parsed as dollars to cents.
 * - `POST /API/IPricing/GetSalesHistoryMulti/v1` with `{items: [{name, appid, phase?}]}`, at
 *   most 50 items, answers `{success, response: [{name, appid, sales: [{time, price}]}]}`
 *   (csinvest `src/connector/csdeals/connector.py` (`conlist(Item, max_length=50)`),
 *   `models/get_sales_history_multi.py`, and the curl in its README). The single-item
 *   `GetSalesHistory/v1 {name, appid, phase?}` → `[{time: int, price: str}]`
 *   (`models/get_sales_history.py`) would cost one request per name, so it is not used. `time`
 *   is unix seconds in the single model and a pydantic `datetime` in the multi one, so seconds,
 *   milliseconds and zoned ISO strings are all read; `price` is a string or a number.
 * - Limits: none found. csinvest sets none; SCMM polls the lowest prices every 30 minutes.
 *   Conservatively 10 requests per 5 minutes for the origin; a poll sends at most 2 (the list
 *   and one sales batch), so both games at the 5-minute cadence use 4 of them.
 * - Doppler phases: csinvest passes an optional `phase` with sales requests, but no source shows
 *   its format or whether answers carry it. So no phase is sent: phase-spliced catalog names are
 *   asked for by their Steam name (deduplicated), and their sales come back mixed under it. A
 *   `phase` field on a lowest-price or sales row, should one appear, is spliced in (`withPhase`).
 * Left out: bids (no buy-order data in either client), listings and floats (SCMM reads them
 * only by scraping the web marketplace's `ajax/marketplace-search`, not the API), and the
 * optional API key (csinvest `auth.py`, Basic `<key>:`), which the pricing methods do not need.
 */
import { MINUTE } from '../../domain/clock.ts';
import type { Game } from '../../domain/games.ts';
import type { Connector, ConnectorRequest, PollContext } from '../connector.ts';
import { MIB, bulkGet } from '../formats/bulk-asks.ts';
import { CURRENCY, SCALE, parseLowestPrices, parseSalesHistory } from './parse.ts';

const APP_ID: Readonly<Record<Game, number>> = { cs2: 730, rust: 252490 };
const SALES_BATCH = 50;
const SPLICED_PHASE =
  /^(.*\| (?:Gamma )?Doppler) (?:Phase [1-4]|Ruby|Sapphire|Black Pearl|Emerald)( \([^()]+\))?$/;

/** `★ Karambit | Doppler Phase 2 (Factory New)` → `★ Karambit | Doppler (Factory New)`. */
export function steamName(name: string): string {
  const match = SPLICED_PHASE.exec(name);
  return match ? `${match[1]}${match[2] ?? ''}` : name;
}

function lowestPrices(game: Game): ConnectorRequest {
  const query = { appid: APP_ID[game] };
  return {
    ...bulkGet('lowest_prices', game, '/API/IPricing/GetLowestPrices/v1', query),
    maxBytes: 16 * MIB,
  };
}

function salesHistory(game: Game, names: readonly string[]): ConnectorRequest {
  return {
    kind: 'sales_history',
    game,
    method: 'POST',
    path: '/API/IPricing/GetSalesHistoryMulti/v1',
    body: { items: names.map((name) => ({ name, appid: APP_ID[game] })) },
    timeoutMs: 30_000,
  };
}

/** The most wanted Steam names, phases folded into their base name, at most one batch. */
function salesNames(priorities: readonly string[]): string[] {
  const names = new Set<string>();
  for (const name of priorities) {
    if (names.size === SALES_BATCH) break;
    names.add(steamName(name));
  }
  return [...names];
}

function requests(ctx: PollContext): ConnectorRequest[] {
  const names = salesNames(ctx.priorities);
  const list = [lowestPrices(ctx.game)];
  if (names.length > 0) list.push(salesHistory(ctx.game, names));
  return list;
}

export const connector: Connector = {
  info: {
    id: 'csdeals',
    displayName: 'CS.Deals',
    games: ['cs2', 'rust'],
    currency: CURRENCY,
    scale: SCALE,
    cadenceMs: 5 * MINUTE,
    capabilities: { asks: true, bids: false, sales: true, listings: false, floats: false },
    docsUrl: 'https://cs.deals/API-documentation',
    baseUrl: 'https://cs.deals',
    limits: [{ requests: 10, windowMs: 5 * MINUTE }],
    credentials: [],
    supplies: 'asks (lowest price) for every item; recent single sales of the most wanted items',
  },
  requests,
  parsers: { lowest_prices: parseLowestPrices, sales_history: parseSalesHistory },
  maxRequestsPerPoll: 2,
};
