/**
 * DMarket (Trading API, https://docs.dmarket.com/v1/swagger.html; its OpenAPI document as
 * mirrored in `api-evangelist/dmarket:openapi/_original/dmarket-trading-openapi.yml`). Facts used:
 * - Every call is signed (`sign.ts`): `X-Api-Key`, `X-Sign-Date`, `X-Request-Sign: dmar ed25519
 *   <hex>` (swagger "Request signature instructions"; `dmarket/dm-trading-tools`). The swagger
 *   puts every operation under these three headers, so both keys are required.
 * - Game ids `a8db` (CS2) and `rust` (swagger `GetMarketplaceOffersV2` `gameId` enum;
 *   dm-trading-tools README). The swagger's aggregated-prices example sends `filter.game: a8db`.
 * - `POST /marketplace-api/v1/aggregated-prices` `{filter: {game, titles[]}, limit, cursor}` →
 *   `{aggregatedPrices[] {title, orderBestPrice, orderCount, offerBestPrice, offerCount},
 *   nextCursor}`; prices `commonMoney {Currency, Amount}`, Amount "integer value in coins (cents
 *   for USD)", counts int64 strings (swagger schemas `marketplaceListAggregatedPrices*`,
 *   `commonMoney`). Working clients read `offerBestPrice.Amount` (Dykij/DMarket-Telegram-Bot
 *   `src/dmarket/models/market_models.py`); some docs show bare cent strings, also accepted. The
 *   deprecated `GET /price-aggregator/v1/aggregated-prices` (csinvest-connector
 *   `src/connector/dmarket/connector.py`) is not used. At most 100 titles per call (Dykij
 *   `aggregated_scanner.py` [oss]; the swagger example's `limit` is "100").
 * - Whether aggregated-prices accepts no titles (the whole catalog by cursor) is NOT documented:
 *   the schema marks nothing required and documents `limit`/`cursor` paging. It is only sent when
 *   a poll has no priorities at all; if DMarket refuses it, that poll fails with an HTTP error.
 * - `GET /trade-aggregator/v1/last-sales?gameId=&title=&limit=` (limit 1..20; "up to 12 last
 *   months"; swagger `Aggregator_GetLastSales`; csinvest `connector.py`): see `sales.ts` for the
 *   price unit, which the swagger leaves open (read as decimal dollars; Dykij's docs claim cents).
 * - `GET /marketplace-api/v2/offers` (swagger `GetMarketplaceOffersV2`, integer `priceCents`,
 *   `cs2Attributes {floatValue, paintSeed}`): listings with floats, see `offers.ts`. The older
 *   `/exchange/v1/offers-by-title` and `/exchange/v1/market/items` are no longer in the swagger
 *   (markets.md reports 410 for the unsigned v1 route) and are not used.
 * - Limits: DMarket's help centre (support.dmarket.com article 25269064897297 "What are the rate
 *   limits for requests") gives, per account: last sales 6 RPS, market items 10 RPS, other methods
 *   20 RPS together; OSS docs report ~30 requests/minute (Dykij `docs/DMARKET_API_FULL_SPEC.md`).
 *   We keep to the lower: 30/min and 5/s. A poll sends at most 15 requests; at the 2-minute
 *   cadence one poll per game (cs2, rust) is 30 requests per 2 minutes = 15/min = 900/hour,
 *   half of the 1800/hour the 30/min budget allows.
 * Left out: the bid ladder of `GET /marketplace-api/v1/targets-by-title/{game}/{title}` (one
 * request per item, and its `price` unit is undocumented; aggregated-prices already gives the
 * best bid and count); listings for Rust (no float, seed or phase to add); per-phase prices in
 * aggregated-prices (DMarket titles are Steam names without phases; phases only come with
 * listings); `POST /trade-aggregator/v1/batch-last-sales` (not in the swagger).
 */
import { MINUTE, SECOND } from '../../domain/clock.ts';
import type { Connector } from '../connector.ts';
import { parseAggregatedPrices } from './aggregated.ts';
import { parseOffers } from './offers.ts';
import { MAX_REQUESTS_PER_POLL, planRequests } from './plan.ts';
import { parseLastSales } from './sales.ts';
import { signRequest } from './sign.ts';
import { CURRENCY, PUBLIC_KEY_ENV, SCALE, SECRET_KEY_ENV } from './units.ts';

const CADENCE_MS = 2 * MINUTE;

export const connector: Connector = {
  info: {
    id: 'dmarket',
    displayName: 'DMarket',
    games: ['cs2', 'rust'],
    currency: CURRENCY,
    scale: SCALE,
    cadenceMs: CADENCE_MS,
    capabilities: { asks: true, bids: true, sales: true, listings: true, floats: true },
    docsUrl: 'https://docs.dmarket.com/v1/swagger.html',
    baseUrl: 'https://api.dmarket.com',
    limits: [
      { requests: 30, windowMs: MINUTE },
      { requests: 5, windowMs: SECOND },
    ],
    credentials: [
      {
        env: PUBLIC_KEY_ENV,
        required: true,
        purpose: 'DMarket Trading API public key (hex), sent as X-Api-Key',
      },
      {
        env: SECRET_KEY_ENV,
        required: true,
        purpose: 'DMarket Trading API secret key (128 hex: Ed25519 seed + public key) for signing',
      },
    ],
    supplies:
      'best ask and bid with offer/order counts for the most wanted items (rotating through the rest); recent sales and cheapest listings with float, seed and phase for a few',
  },
  requests: (ctx) => planRequests(ctx, CADENCE_MS),
  parsers: {
    aggregated_prices: parseAggregatedPrices,
    last_sales: parseLastSales,
    offers: parseOffers,
  },
  sign: signRequest,
  maxRequestsPerPoll: MAX_REQUESTS_PER_POLL,
};
