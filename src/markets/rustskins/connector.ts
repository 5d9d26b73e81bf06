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
import type { Connector, ConnectorRequest, PageResult, ParseContext } from '../connector.ts';
import {
  MIB,
  askRows,
  askWithCount,
  bulkGet,
  observationBase,
  type AskRows,
} from '../formats/bulk-asks.ts';
import { malformedBody, readName } from '../formats/common.ts';
import { decimalPrice } from '../formats/prices.ts';

const CURRENCY = 'USD';
const SCALE = 100;

const ROWS: AskRows = {
  base: observationBase('rustskins', CURRENCY, SCALE),
  price: decimalPrice(SCALE),
  label: 'row',
  noName: 'no item name',
  name: (row) => readName(row.item),
  ask: (row) => askWithCount(row.price, row.count, 'count'),
};

/** Sample: [{"item":"Tempered AK47","count":14,"price":29.87}] */
export function parseMarketplaceData(body: unknown, ctx: ParseContext): PageResult {
  if (!Array.isArray(body)) return malformedBody('expected an array of {item, count, price}');
  return askRows(body, ROWS, ctx);
}

const MARKETPLACE_DATA: ConnectorRequest = {
  ...bulkGet('marketplace_data', 'rust', '/external/marketplace/data'),
  maxBytes: 16 * MIB,
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
