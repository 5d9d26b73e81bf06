/**
 * Waxpeer (https://api.waxpeer.com/docs, now https://docs.waxpeer.com). Facts used:
 * - `GET https://api.waxpeer.com/v1/prices?game=csgo|rust&minified=&highest_offer=&single=` —
 *   no key (SCMM `SCMM.Market.Waxpeer.Client/WaxpeerWebClient.cs` calls it without one); rows
 *   `{name, count, min, steam_price, img, type, rarity_color}` (npm `waxpeer` 1.6.3,
 *   `skylight-ity/waxpeer:src/waxpeer.ts` getPrices; `DarkGL/waxpeer:src/types/waxpeer.ts`).
 *   `min` is the lowest ask in 1/1000 USD: SCMM `UpdateMarketItemPricesFromWaxpeer.cs` divides by
 *   10 for cents, the wrappers document `1000 = $1`. `highest_offer=1` "will return
 *   highest_offer for the items" (same wrappers). The field's name comes from that sentence; its
 *   unit is assumed to be the same 1/1000 USD. Waxpeer's buy offers are "not filtered by users'
 *   balances" (`DarkGL/waxpeer` get-steam-items), so the bid may be unfunded. `minified=0` is
 *   asked because the docs do not say which fields minification drops.
 * - Doppler names: `/v1/prices` and Waxpeer's live feed write the phase into the name
 *   (`★ Karambit | Doppler Phase 3 (Factory New)`; a public script strips `Phase 2 ` from
 *   `/v1/prices` names, and the Brand Sniper notes on the feed say so). Those names go to ingest
 *   unchanged; it resolves spliced phases.
 * - `GET /v1/prices/dopplers?phase=any&minified=0` returns one row per Doppler listing,
 *   `{name, item_id, price, phase, steam_price, img, weapon, paint_index, float}`. The name is the
 *   Steam name and `phase` is one of Phase 1-4, Ruby, Sapphire, Black Pearl or Emerald (the
 *   wrappers' `getPricesDopplers`). The wrappers send `api=` with every call, so whether this
 *   route works without a key is unverified: the key is sent when set, and a keyless refusal
 *   costs one rejected page. CS2 only.
 * - `POST /v1/mass-info?game=&api=KEY` with `{name: [≤ 50 names], sell: 1}` returns
 *   `data{<name>: {listings[], orders[], history[], info}}`. Listings are
 *   `{price, by, item_id, name, paint_index, steam_price, classid, image, phase?}` (wrappers).
 *   `float` is the live feed's field name. `orders` entries are undocumented (`[{}]`); we read
 *   `{price, amount}` as in the buy-order routes (`IBuyOrdersOffer`). `history` is marked
 *   "currently disabled" in the docs (v2.2.9, as read in the Brand Sniper notes), so no sales.
 * - Auth: the key goes in the `api` query parameter, never in a header (wrappers; docs
 *   "Authentication" page as cited in the Brand Sniper notes).
 * - Limits, which disagree: the npm wrapper caps `/prices` and `/prices/dopplers` at 60 per
 *   minute each ("might cause 429 error code or IP ban"). `Dykij/DMarket-Telegram-Bot:
 *   docs/WAXPEER_API_SPEC.md` says `/prices` allows 10 per minute. The Brand Sniper notes say
 *   the name-search routes and `mass-info` share 20 per minute. We keep the lowest: one budget of
 *   10 requests per minute for the origin. At the 1-minute cadence a CS2 poll sends at most 4
 *   requests (prices, dopplers, 2 × mass-info) and a Rust poll 3, so 7 a minute (420 an hour)
 *   fit under 10 a minute, with room for retries.
 * Left out: the 65 MB CSV `/v1/prices/snapshot` (every listing; far too big per minute), the
 *   Socket.IO feed (a stream, not a poll), `history` (disabled), paint seeds and stickers (not in
 *   these routes), and ask ladders from `mass-info` listings (whether they are complete is not
 *   documented; `/v1/prices` keeps the ask).
 */
import { MINUTE } from '../../domain/clock.ts';
import type { Connector } from '../connector.ts';
import { parseMassInfo } from './parse-mass-info.ts';
import { CURRENCY, SCALE, parseDopplers, parsePrices } from './parse-prices.ts';
import { API_KEY, MAX_REQUESTS, pollRequests } from './requests.ts';

export const connector: Connector = {
  info: {
    id: 'waxpeer',
    displayName: 'Waxpeer',
    games: ['cs2', 'rust'],
    currency: CURRENCY,
    scale: SCALE,
    cadenceMs: 1 * MINUTE,
    capabilities: { asks: true, bids: true, sales: false, listings: true, floats: true },
    docsUrl: 'https://api.waxpeer.com/docs',
    baseUrl: 'https://api.waxpeer.com',
    limits: [{ requests: 10, windowMs: MINUTE }],
    credentials: [
      {
        env: API_KEY,
        required: false,
        purpose: 'mass-info for the most wanted items: listings with floats and phases, buy orders',
      },
    ],
    supplies:
      'asks (lowest price, listing count) and best buy offer for every item; Doppler phase ' +
      'ladders and listings with floats; with a key, listings and buy orders of the most wanted items',
  },
  requests: pollRequests,
  parsers: { prices: parsePrices, dopplers: parseDopplers, mass_info: parseMassInfo },
  maxRequestsPerPoll: MAX_REQUESTS,
};
