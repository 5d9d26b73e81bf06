/**
 * RustSkins (no public API docs found; the facts come from SCMM's client, which is the docs URL
 * the market registry names). Facts used:
 * - `GET https://api.rustskins.com/external/marketplace/data` — no auth in SCMM; a JSON array,
 *   one row per item name: `{item, count, price}`, `count` the listings behind the name and
 *   `price` the lowest one as a decimal (SCMM `SCMM.Market.RustSkins.Client/
 *   RustSkinsWebClient.cs`, `RustSkinsItem.cs`, `RustSkinsMarketListingsResponse.cs`).
 * - USD: "Prices are returned in USD by default", and a price only counts when `count > 0`
 *   (SCMM `SCMM.Steam.Functions/Timer/UpdateMarketItemPricesFromRustSkins.cs`, which turns
 *   the decimal into cents with `SteamPriceAsInt`). So `count: 0` is an empty ask whatever
 *   `price` says.
 * - Rust only (252490); names are Steam `market_hash_name`s, no phases or floats.
 * - Limits: none published. SCMM polls every 30 minutes; here one request per 15-minute poll
 *   against a conservative 2 per 15 minutes.
 * Left out: bids and sales. Some bots read `/external/buy-orders/data` (highest buy order per
 *   name) with a RustSkins API key, but no maintained client or documentation backs its shape
 *   or terms, so it is not used; no source shows sales history.
 */
import { MINUTE } from '../../domain/clock.ts';
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

function base(ctx: ParseContext, name: string): ObservationBase {
  return { game: ctx.game, market: 'rustskins', item: name, currency: CURRENCY, scale: SCALE };
}

/** Sample: [{"item":"Tempered AK47","count":14,"price":29.87}] */
export function parseMarketplaceData(body: unknown, ctx: ParseContext): PageResult {
  if (!Array.isArray(body)) return malformedBody('expected an array of {item, count, price}');
  const out = new ResultBuilder();
  body.forEach((row, index) => {
    const name = isRecord(row) ? readName(row.item) : null;
    if (!isRecord(row) || name === null) {
      return out.reject({ reason: 'malformed', detail: 'no item name' }, `row ${index}`);
    }
    const count = readCount(row.count);
    if (count === null) return out.reject({ reason: 'malformed', detail: 'count' }, name);
    const asks = topLevel(row.price, count, readPrice);
    out.side(base(ctx, name), 'ask', asks, count, ctx.now, { at: null, kind: null });
  });
  return out.result();
}

const MARKETPLACE_DATA: ConnectorRequest = {
  kind: 'marketplace_data',
  game: 'rust',
  method: 'GET',
  path: '/external/marketplace/data',
  conditional: true,
  timeoutMs: 60_000,
  maxBytes: 16 * 1024 * 1024,
};

export const connector: Connector = {
  info: {
    id: 'rustskins',
    displayName: 'RustSkins',
    games: ['rust'],
    currency: CURRENCY,
    scale: SCALE,
    cadenceMs: 15 * MINUTE,
    capabilities: { asks: true, bids: false, sales: false, listings: false, floats: false },
    docsUrl:
      'https://github.com/Steam-Community-Market-Manager/SCMM/tree/main/SCMM.Market.RustSkins.Client',
    baseUrl: 'https://api.rustskins.com',
    limits: [{ requests: 2, windowMs: 15 * MINUTE }],
    credentials: [],
    supplies: 'asks (lowest price, listing count) for every Rust item',
  },
  requests: () => [MARKETPLACE_DATA],
  parsers: { marketplace_data: parseMarketplaceData },
  maxRequestsPerPoll: 1,
};
