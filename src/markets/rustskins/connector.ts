/**
 * RustSkins (no public API docs found). Facts used:
 * - `GET https://api.rustskins.com/external/marketplace/data/252490` with
 *   `Authorization: Bearer <API key>`: what current public clients call (connector-audit.md
 *   #12, a newer Node parser). The keyless `/external/marketplace/data` that SCMM's 2024 client
 *   reads looks retired, so the key is required: without it the market is not polled and its
 *   health note names the variable; a refused key fails as `auth`.
 * - Body: a JSON array, one row per item name: `{item, count, price}`, `count` the listings
 *   behind the name and `price` the lowest one as a decimal (SCMM
 *   `SCMM.Market.RustSkins.Client/RustSkinsItem.cs`; the newer client reads the same row).
 * - USD: "Prices are returned in USD by default", and a price only counts when `count > 0`
 *   (SCMM `SCMM.Steam.Functions/Timer/UpdateMarketItemPricesFromRustSkins.cs`, which turns
 *   the decimal into cents with `SteamPriceAsInt`). So `count: 0` is an empty ask whatever
 *   `price` says.
 * - Rust only (252490); names are Steam `market_hash_name`s, no phases or floats.
 * - Limits: none published. SCMM polls every 30 minutes; here one request per 15-minute poll
 *   against a conservative 2 per 15 minutes.
 * Left out: bids and sales. The same clients read `/external/buy-orders/data/252490` (highest
 *   buy order per name) with the key, but no source shows its row shape beyond one client, so
 *   it is not used; no source shows sales history.
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
const RUST_APP_ID = 252490;
export const API_KEY_ENV = 'PRICING_RUSTSKINS_API_KEY';

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

function marketplaceData(key: string): ConnectorRequest {
  return {
    ...bulkGet('marketplace_data', 'rust', `/external/marketplace/data/${RUST_APP_ID}`),
    headers: { Authorization: `Bearer ${key}` },
    secret: ['Authorization'],
    maxBytes: 16 * MIB,
  };
}

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
    credentials: [
      { env: API_KEY_ENV, required: true, purpose: 'the marketplace price list (Bearer key)' },
    ],
    supplies: 'asks (lowest price, listing count) for every Rust item',
  },
  requests: (ctx) => {
    const key = ctx.credentials[API_KEY_ENV];
    return key ? [marketplaceData(key)] : [];
  },
  parsers: { marketplace_data: parseMarketplaceData },
  maxRequestsPerPoll: 1,
};
