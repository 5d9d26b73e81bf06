/**
 * Mannco.store (Rust here; no official API docs). Facts used, all from SCMM, the one public
 * client of this endpoint found:
 * - `GET https://mannco.store/items/get?price=DESC&page=1&i=0&game=252490&skip=<n>`: the web
 *   store's own item list, no auth (SCMM `SCMM.Market.ManncoStore.Client/
 *   ManncoStoreWebClient.cs`, as changed for "upstream API changes" in commit `cf39b797`,
 *   May 2024). Items come page by page: SCMM adds each page's length to `skip` and stops at
 *   the first empty page (`SCMM.Steam.Functions/Timer/UpdateMarketItemPricesFromManncoStore.cs`).
 *   The page size is not stated anywhere, so it is taken from each answer.
 * - Body: an array of `{name, pp, nbb}` (SCMM `ManncoStoreItem.cs`): `pp` the lowest price as an
 *   integer in US cents (a `long` fed straight to SCMM's cents exchange, "Prices are returned
 *   in USD by default"), `nbb` the number on sale (SCMM's supply; no price when 0 or when `pp`
 *   is 0, which we reject as a zero price). Public scrapers of the same URL read the price
 *   from `price` (integer cents) instead (connector-audit.md #15): the disputed field is
 *   settled per row: `pp`, else `price`; a row carrying both with different values is refused
 *   (`wrong_unit`), never guessed.
 * - Cloudflare bot protection fronts the site; every public scraper needs a browser or a
 *   challenge solver (connector-audit.md #15). A challenge page fails the request as
 *   `blocked` (the shared HTTP client), never as prices.
 * - Limits: none published. A poll follows pages up to 40 requests, at most one every 2
 *   seconds; Rust alone at the 20-minute cadence then sends at most 40 per 20 minutes (120 an
 *   hour), which the budget allows and no more. SCMM polls every 30 minutes. Sorting is by
 *   price, highest first, so a poll cut short by the cap misses the cheapest items.
 * Not in the list, so left out: bids, sales, listings and floats. CS2 is not polled: our
 * registry lists Mannco.store for Rust only (SCMM also reads app 730).
 */
import { MINUTE, SECOND } from '../../domain/clock.ts';
import type { Game } from '../../domain/games.ts';
import type { Connector, ConnectorRequest, PageResult, ParseContext } from '../connector.ts';
import {
  askRows,
  askWithCount,
  nameField,
  observationBase,
  type AskRows,
} from '../formats/bulk-asks.ts';
import { fail, malformedBody, readCount } from '../formats/common.ts';
import { integerPrice } from '../formats/prices.ts';

const CURRENCY = 'USD';
const SCALE = 100;
const APP_ID: Readonly<Record<Game, number>> = { cs2: 730, rust: 252490 };
const MAX_PAGES = 40;

const ITEMS: AskRows = {
  ...nameField('item', 'name'),
  base: observationBase('mannco-store', CURRENCY, SCALE),
  price: integerPrice,
  ask: (row) => {
    const price = row.pp ?? row.price;
    if (row.pp !== undefined && row.price !== undefined && row.pp !== row.price) {
      return fail(
        'wrong_unit',
        `pp ${JSON.stringify(row.pp)} and price ${JSON.stringify(row.price)} disagree`,
      );
    }
    return askWithCount(price, row.nbb, 'nbb');
  },
};

function itemsPage(game: Game, skip: number): ConnectorRequest {
  return {
    kind: 'items',
    game,
    method: 'GET',
    path: '/items/get',
    query: { price: 'DESC', page: 1, i: 0, game: APP_ID[game], skip },
    timeoutMs: 30_000,
  };
}

/** Sample: [{"name":"Tempered AK47","pp":2395,"nbb":3}] */
export function parseItems(body: unknown, ctx: ParseContext): PageResult {
  if (!Array.isArray(body)) return malformedBody('expected an array of items');
  const result = askRows(body, ITEMS, ctx);
  const skip = readCount(ctx.request.query?.skip) ?? 0;
  if (body.length > 0) result.next = [itemsPage(ctx.game, skip + body.length)];
  return result;
}

export const connector: Connector = {
  info: {
    id: 'mannco-store',
    displayName: 'Mannco.store',
    games: ['rust'],
    currency: CURRENCY,
    scale: SCALE,
    cadenceMs: 20 * MINUTE,
    capabilities: { asks: true, bids: false, sales: false, listings: false, floats: false },
    docsUrl:
      'https://github.com/Steam-Community-Market-Manager/SCMM/tree/main/SCMM.Market.ManncoStore.Client',
    baseUrl: 'https://mannco.store',
    limits: [
      { requests: MAX_PAGES, windowMs: 20 * MINUTE },
      { requests: 1, windowMs: 2 * SECOND },
    ],
    credentials: [],
    supplies: 'asks (lowest price, number on sale) for the Rust items on sale',
  },
  requests: (ctx) => [itemsPage(ctx.game, 0)],
  parsers: { items: parseItems },
  maxRequestsPerPoll: MAX_PAGES,
};
