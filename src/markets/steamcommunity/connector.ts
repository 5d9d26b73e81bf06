/**
 * Steam Community Market (steamcommunity.com; no official API docs: the facts come from
 * maintained clients and are cited per endpoint). Facts used:
 * - Bulk search `GET /market/search/render/?norender=1&appid=&start=&count=&sort_column=
 *   &sort_dir=&currency=` — no auth; `{success, start, pagesize, total_count, results[]}` with
 *   `hash_name`, `sell_listings`, `sell_price` (integer cents, buyer price) and
 *   `sell_price_text` (SCMM `SCMM.Steam.Data.Models/Community/Requests/Json/
 *   SteamMarketSearchPaginatedJsonRequest.cs`, `.../Responses/Json/
 *   SteamMarketSearchPaginatedJsonResponse.cs`, `.../Community/Models/SteamMarketSearchItem.cs`;
 *   `softwerk-org/csinvest-connector:src/connector/steam/community/models/get_market_page.py`).
 *   SCMM pages by up to 100; the Revadike/InternalSteamWebAPI wiki ("Search Market") says
 *   anonymous callers always get 10: we ask for 100 and continue after what came back.
 * - Listing page `GET /market/listings/<appid>/<name, RFC 3986-encoded>` (HTML) holds
 *   `Market_LoadOrderSpread( <item_nameid> )` (SCMM `SCMM.Steam.Data.Models/Constants.cs`
 *   `SteamMarketListingItemNameIdRegex`, `.../Requests/Html/SteamMarketListingPageRequest.cs`).
 * - Order book `GET /market/itemordershistogram?country=US&language=english&currency=1
 *   &item_nameid=&two_factor=0&norender=1` — no auth; fields and the cumulative graphs in
 *   `parse-orders.ts` (SCMM `.../Requests/Json/SteamMarketItemOrdersHistogramJsonRequest.cs`,
 *   `.../Responses/Json/SteamMarketItemOrdersHistogramJsonResponse.cs`; csinvest-connector
 *   `.../models/get_itemordershistogram.py`; the wiki's "Get Market Item Orders Histogram"
 *   example: graph prices as dollar numbers, `highest_buy_order` "3" in cents, counts as
 *   numbers or strings). SCMM sends the listing page as Referer for it and for priceoverview.
 * - `GET /market/priceoverview/?appid=&currency=1&market_hash_name=` — no auth; display strings
 *   (SCMM `.../SteamMarketPriceOverviewJsonRequest.cs` and `...Response.cs`; csinvest-connector
 *   `.../models/get_priceoverview.py`, whose comma-decimal reading we deliberately do not copy).
 * - `currency=1` is USD (csinvest-connector `.../steam/community/enums.py`); all prices here are
 *   USD cents. Bids pay in Steam Wallet credit, which the engine already knows (markets.ts).
 * - Limits are not published. The wiki gives 20 / minute for search; OSS trackers throttle
 *   priceoverview to ~20 / minute (markets.md); a public case-sim.com write-up reports 429s
 *   without Retry-After after ~20 quick requests. We budget 20 per minute for the whole origin
 *   and plan at most 10 requests per poll (follow-ups included), so the CS2 and Rust polls
 *   together never exceed it even when they fall in the same minute, at any cadence down to one
 *   minute: at our 5-minute cadence that is 2 games × 12 polls × 10 = 240 requests an hour of
 *   the 1,200 the limit would allow. The same wiki claims histograms are limited to 10 unique
 *   items an hour [?, unverified]; polling the same top items each time is the pattern it says
 *   is allowed.
 * Left out: `/market/pricehistory` (single sales, hourly) needs a logged-in `steamLoginSecure`
 * cookie (SCMM `SteamMarketPriceHistoryJsonRequest.cs`: "requires authentication"); we hold no
 * Steam account and ask for none. Individual listings (`/market/listings/.../render`) carry no
 * float or paint seed without inspecting each item, and their prices follow the viewer's
 * wallet. Steam names are the catalog's names; Steam sells no Doppler phase apart, so names
 * pass through unchanged.
 */
import { MINUTE } from '../../domain/clock.ts';
import type { Connector } from '../connector.ts';
import { parseHistogram, parseListingPage } from './parse-orders.ts';
import { parsePriceOverview } from './parse-overview.ts';
import { parseSearch } from './parse-search.ts';
import { MAX_REQUESTS_PER_POLL, planPoll } from './plan.ts';
import { CURRENCY, ORIGIN, SCALE } from './steam.ts';

export const connector: Connector = {
  info: {
    id: 'steamcommunity',
    displayName: 'Steam Community Market',
    games: ['cs2', 'rust'],
    currency: CURRENCY,
    scale: SCALE,
    cadenceMs: 5 * MINUTE,
    capabilities: { asks: true, bids: true, sales: true, listings: false, floats: false },
    docsUrl:
      'https://github.com/Steam-Community-Market-Manager/SCMM/tree/main/SCMM.Steam.Data.Models/Community',
    baseUrl: ORIGIN,
    limits: [{ requests: 20, windowMs: MINUTE }],
    credentials: [],
    supplies:
      'asks (lowest price, listing count) across the catalog by rotation; full ask and bid ladders and 24h sales volume/median for the most wanted items',
  },
  requests: planPoll,
  parsers: {
    search: parseSearch,
    listing_page: parseListingPage,
    histogram: parseHistogram,
    price_overview: parsePriceOverview,
  },
  maxRequestsPerPoll: MAX_REQUESTS_PER_POLL,
};
