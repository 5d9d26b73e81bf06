/**
 * RUST.TM (rust.tm), Rust: the sister site of Market.CSGO on the same API, so the requests and
 * parsers are `marketcsgo/tm-api.ts`. Facts used, beyond those in `marketcsgo/connector.ts`:
 * - `GET https://rust.tm/api/v2/prices/USD.json`, no key: `{success, time, currency, items:
 *   [{market_hash_name, volume (int), price (decimal)}]}`; SCMM polls it every 30 minutes and
 *   stores `volume` as the supply (listing count), price 0 when it is 0
 *   (SCMM `SCMM.Market.RustTM.Client/RustTMWebClient.cs`, `RustTMPricesResponse.cs`,
 *   `RustTMtem.cs`, `SCMM.Steam.Functions/Timer/UpdateMarketItemPricesFromRustTM.cs`).
 * - `GET /api/v2/prices/orders/USD.json`, no key: buy orders, same shape [oss: public Rust
 *   buy-order parser code fetches it from rust.tm; not in SCMM].
 * - Keyed `bid-ask` and `get-list-items-info`: assumed the same as on market.csgo.com because
 *   the sites share the API [?: no Rust-specific source]. Rust names have no wear or phase.
 * - Units and limit as on market.csgo.com (USD, 1 USD = 1000; 5 req/s deletes a key). At the
 *   15-minute cadence (SCMM's 30 halved) a poll is at most 13 requests: 4 polls and ≤ 52
 *   requests an hour, within the 2 req/s and 20 req/min budget of the origin.
 */
import { MINUTE } from '../../domain/clock.ts';
import type { Connector } from '../connector.ts';
import { tmConnector } from '../marketcsgo/tm-api.ts';

export const connector: Connector = tmConnector({
  id: 'rusttm',
  displayName: 'RUST.TM',
  game: 'rust',
  baseUrl: 'https://rust.tm',
  docsUrl:
    'https://github.com/Steam-Community-Market-Manager/SCMM/tree/main/SCMM.Market.RustTM.Client',
  cadenceMs: 15 * MINUTE,
  keyEnv: 'PRICING_RUSTTM_API_KEY',
  supplies:
    'asks (lowest price, listing count) and best bids for every item; with a key, bid/ask ladders and recent sales of the most-wanted items',
});
