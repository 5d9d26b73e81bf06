/**
 * Market.CSGO (market.csgo.com, "TM"), CS2. Shared with rust.tm through `tm-api.ts`. Facts used:
 * - `GET /api/v2/prices/USD.json`, no key: `{success, time (unix s), currency, items:
 *   [{market_hash_name, volume, price}]}`, price a decimal string (docs
 *   https://market.csgo.com/en/api "Price list (best offers)", https://market.csgo.com/docs-v2;
 *   `softwerk-org/csinvest-connector: src/connector/marketcsgo/models/get_prices.py`). The docs
 *   give no meaning for `volume`; every client read treats it as the number of listings on sale
 *   at any price (SCMM `SCMM.Steam.Functions/Timer/UpdateMarketItemPricesFromRustTM.cs` stores
 *   it as `Supply` and sums it as `TotalListings`, and zeroes the price when it is 0; other
 *   public price-compare code reads it as "number of offers"), so it is the ask side's listing
 *   count here, not a sales volume. It arrives as a string or a number
 *   (`ialakey/marketcsgo4j: MarketClientTest.java` `"volume":"68"`; SCMM `int`).
 * - Units: the API counts 1 USD = 1000 (docs "Buying/selling items",
 *   https://market.csgo.com/en/api/content/sell_buy: "1 RUB = 100, 1 USD = 1000, 1 EUR = 1000"),
 *   and the USD exports keep three decimals ("13.754", "0.620": `ialakey/marketcsgo4j:
 *   model/PriceListEntry.java`, `money/MarketCurrency.java`). So prices stay in milli-dollars
 *   (scale 1000), never rounded to cents here. The body's `currency` must be USD.
 * - `GET /api/v2/prices/orders/USD.json`, no key: the highest buy order per name, same shape
 *   [oss, not in the docs we could read]: `ialakey/marketcsgo4j: api/PricesApi.java`
 *   (`buyOrderPrices`), public price-compare and collector code that fetch it from market.csgo.com
 *   and rust.tm. One client reads `volume` as the open buy-order count, another says it is absent,
 *   so a missing `volume` leaves the count unknown.
 * - Keyed (`key` query parameter, marked secret): `GET /api/v2/bid-ask?key=&hash_name=[&phase=]`
 *   returns `{bid: [...], ask: [...]}` ladders (docs URL pattern quoted in public clients;
 *   markets.md). Level prices are whole-dollar decimals ("unlike the search endpoints",
 *   `ialakey/marketcsgo4j: model/BidAsk.java`); the level size is `count` (markets.md) or
 *   `total` (marketcsgo4j) [?], both read. `GET /api/v2/get-list-items-info?key=&list_hash_name[]=`
 *   returns `{success, currency, data: {<name>: {max, min, average, history: [[unix s, price]]}}}`
 *   (`softwerk-org/csinvest-connector: src/connector/marketcsgo/models/get_list_items_info.py`);
 *   history prices are decimal dollars (csinvest types them `float`, a public RU client reads
 *   them as major units; only `ialakey/marketcsgo4j`, tested against its own fake server, reads
 *   integer milli-dollars: connector-audit.md #5). Keyed answers are in the account's currency
 *   (public price-compare code refuses them for that reason): non-USD bodies are refused as
 *   `wrong_unit`, and a bid-ask body naming no currency (that it names one rests on
 *   marketcsgo4j alone) fails the request as `parse` with that reason: never guessed.
 * - Limit: "more than 5 requests per second … your key will be deleted" (docs, "Creating an API
 *   key"); no per-minute or export limit is published. The origin's budget is 2 req/s and
 *   20 req/min (marketcsgo4j keeps under 4/s for the same reason). A poll is at most 2 exports +
 *   10 bid-ask + 1 sales request = 13, spaced by the 2/s budget (about 6 s); at the 2-minute
 *   cadence at most one poll falls in a minute (13 ≤ 20), i.e. 30 polls and ≤ 390 requests an
 *   hour, of which ≤ 330 carry the key (≈ 0.09/s against 5/s).
 * Left out: `phase` on bid-ask (its values are not documented: phase-spliced names are skipped,
 * plain Doppler names get the all-phase ladder); `max/min/average` of items-info (the window is
 * not documented, so no `sales_stats`); the full export `/api/full-export/USD.json` with float,
 * paint seed, phase per listing (about 130 chunk files a poll: too many for this budget); the
 * GraphQL `history` (undocumented, browser headers); `full-history/*.json` (OSS-only).
 */
import { MINUTE } from '../../domain/clock.ts';
import type { Connector } from '../connector.ts';
import { tmConnector } from './tm-api.ts';

export const connector: Connector = tmConnector({
  id: 'marketcsgo',
  displayName: 'Market.CSGO',
  game: 'cs2',
  baseUrl: 'https://market.csgo.com',
  docsUrl: 'https://market.csgo.com/en/api',
  cadenceMs: 2 * MINUTE,
  keyEnv: 'PRICING_MARKETCSGO_API_KEY',
  supplies:
    'asks (lowest price, listing count) and best bids for every item; with a key, bid/ask ladders and recent sales of the most-wanted items',
});
