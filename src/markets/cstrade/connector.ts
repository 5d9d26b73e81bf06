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
import type { ObservationBase } from '../../domain/observation.ts';
import type { Connector, ConnectorRequest, PageResult, ParseContext } from '../connector.ts';
import {
  ResultBuilder,
  isRecord,
  malformedBody,
  readCount,
  readName,
  topLevel,
} from '../formats/common.ts';
import { decimalPrice } from '../formats/prices.ts';

const CURRENCY = 'USD';
const SCALE = 100;
const readPrice = decimalPrice(SCALE);
const APP: Readonly<Record<Game, string>> = { cs2: 'CSGO', rust: 'RUST' };
const NO_TIME = { at: null, kind: null };

function base(ctx: ParseContext, name: string): ObservationBase {
  return { game: ctx.game, market: 'cstrade', item: name, currency: CURRENCY, scale: SCALE };
}

/**
 * Sample: {"AK-47 | Redline (Field-Tested)":{"price":14.87,"have":6,"tradable":6,
 * "reservable":0,"can_take":6,"max":15}}
 */
export function parsePrices(body: unknown, ctx: ParseContext): PageResult {
  if (!isRecord(body)) return malformedBody('expected an object keyed by item name');
  const out = new ResultBuilder();
  for (const [key, row] of Object.entries(body)) {
    const name = readName(key);
    if (name === null) {
      out.reject({ reason: 'malformed', detail: 'empty item name' }, 'prices');
      continue;
    }
    const have = isRecord(row) ? readCount(row.have) : null;
    if (!isRecord(row) || have === null) {
      out.reject({ reason: 'malformed', detail: 'not {price, have}' }, name);
      continue;
    }
    out.side(base(ctx, name), 'ask', topLevel(row.price, have, readPrice), have, ctx.now, NO_TIME);
  }
  return out.result();
}

function prices(game: Game): ConnectorRequest {
  return {
    kind: 'prices',
    game,
    method: 'GET',
    path: `/api/prices_${APP[game]}`,
    conditional: true,
    timeoutMs: 60_000,
    maxBytes: 32 * 1024 * 1024,
  };
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
  requests: (ctx) => [prices(ctx.game)],
  parsers: { prices: parsePrices },
  maxRequestsPerPoll: 1,
};
