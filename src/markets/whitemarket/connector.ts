/**
 * White.market (partner docs: https://api.white.market/docs_partner). Facts used:
 * - Price export `GET /export/v1/prices/730.json` — no auth; a JSON array, one row per item
 *   name: `market_hash_name`, `price` ("price value in USD", a decimal), `market_product_link`,
 *   `market_product_count` (listings of that name) (docs_partner `uk/rest/prices.html`, which
 *   also lists `.10min/.1hour/.12hours/.24hours` variants filtered by the seller's maximum
 *   delivery time, and `.jsonl`/`.csv` forms). The docs name the host `api.white.market`, so
 *   that is the default origin here. Some clients fetch the same path from the undocumented
 *   `s3.white.market` (`softwerk-org/csinvest-connector:src/connector/whitemarket/connector.py`,
 *   `S3_BASE_URL`); whether `api.white.market` serves the file itself or redirects there is
 *   not settled by any source. Redirects are not followed: a 3xx fails the request with its
 *   `Location` in the detail, and a markets-file `baseUrl` of that origin fixes it.
 * - The rest of each row describes that name's cheapest listing: `cheapest_asset_id` (int),
 *   `cheapest_float` (string or null), `paint_index`, `paint_seed` (ints), `inspect_link`
 *   (csinvest `models/get_prices.py`). The live feed documents the same listing fields and that
 *   float, paint index and paint seed may be blank until Steam answers (docs_partner
 *   `live-updates/messages.html`). Each row therefore yields an ask (price, count) for the name
 *   and a listing observation for that cheapest listing.
 * - Doppler phases: rows are per Steam name (all phases together), so the ask stays on it; the
 *   listing's phase comes from its paint index (`phaseOfPaintIndex`) and its item name gets the
 *   phase spliced in (`withPhase`), so ingest files it under the phase variant.
 * - The export is one large static file (~20-27k rows per OSS readers of it), read with a
 *   60 MB cap, 2-minute timeout and ETag revalidation. No limit is published for it; one
 *   request per 10-minute poll against a conservative 2 per 10 minutes.
 * Left out: sales. csinvest reads daily `market_stats_product(appId, nameHash) {priceAvg volume
 * date}` from GraphQL `https://api.white.market/graphql/api`, but the partner docs document only
 * `/graphql/partner` behind a partner token exchanged for a 24-hour JWT (`3-authorization.html`,
 * `graphql/00-1-glossary.html`), not that keyless query; it is also another origin than the
 * export's and gives daily averages per name, not sales. Bids: none in the export or clients.
 */
import { MINUTE } from '../../domain/clock.ts';
import type { Connector, ConnectorRequest } from '../connector.ts';
import { MIB, bulkGet } from '../formats/bulk-asks.ts';
import { CURRENCY, SCALE, parsePrices } from './parse.ts';

const PRICES: ConnectorRequest = {
  ...bulkGet('prices', 'cs2', '/export/v1/prices/730.json'),
  timeoutMs: 120_000,
  maxBytes: 60 * MIB,
};

export const connector: Connector = {
  info: {
    id: 'whitemarket',
    displayName: 'White.market',
    games: ['cs2'],
    currency: CURRENCY,
    scale: SCALE,
    cadenceMs: 10 * MINUTE,
    capabilities: { asks: true, bids: false, sales: false, listings: true, floats: true },
    docsUrl: 'https://api.white.market/docs_partner',
    baseUrl: 'https://api.white.market',
    limits: [{ requests: 2, windowMs: 10 * MINUTE }],
    credentials: [],
    supplies:
      'asks (lowest price, listing count) for every item; the cheapest listing with float, seed and phase',
  },
  requests: () => [PRICES],
  parsers: { prices: parsePrices },
  maxRequestsPerPoll: 1,
};
