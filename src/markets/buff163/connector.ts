/**
 * BUFF163 (buff.163.com), CS2 only. No official API: the site's own JSON endpoints behind a
 * logged-in `session` cookie. Facts used, and where they come from:
 * - `GET https://buff.163.com/api/market/goods?game=csgo&page_num=&page_size=` — per Steam name
 *   `{id (goods_id), market_hash_name, sell_min_price, sell_num, buy_max_price, buy_num, …}`,
 *   prices as CNY decimal strings, plus `data.page_num/total_page/total_count`; every answer is
 *   `{code, data, msg}` (softwerk-org/csinvest-connector:
 *   src/connector/buff163/models/get_market_goods.py and connector.py; GODrums/BetterBuff:
 *   src/lib/@types/BuffTypes.d.ts `MarketGoods`). At most 80 per page, the `session` cookie,
 *   `sort_by=price.desc` and the `/market/csgo` referrer are from SCMM
 *   `SCMM.Market.Buff.Client/BuffWebClient.cs`; the cookie is also how Steamauto/Steamauto:
 *   BuffApi/__init__.py authenticates. `search=` (our name lookup) is used by OSS crawlers and
 *   BetterBuff's page handlers, but no source documents its matching rules [unverified].
 * - `GET /api/market/goods/sell_order?game=csgo&goods_id=&page_num=&sort_by=` — `data.items[]`
 *   `{id, price, asset_info{paintwear, action_link, info{paintseed, paintindex, stickers[]}}}`
 *   (sticker `name`s) and `data.goods_infos{<goods_id>: {market_hash_name}}`, `data.total_count`
 *   (BetterBuff `BuffTypes.SellOrder`; Steamauto `get_sell_order` params). Sorts other than
 *   `default` need login there; we are logged in and ask `price.asc` so page 1 is the ask
 *   ladder's top. `info.inspect_url` is Buff's screenshot, not a Steam link: only a `steam://`
 *   `action_link` becomes the inspect link.
 * - `GET /api/market/goods/buy_order?game=csgo&goods_id=&page_num=` — `data.items[]` `{price,
 *   num, real_num, frozen_amount, specific[]}` (BetterBuff `BuffTypes.BuyOrder`); which of `num`
 *   and `real_num` is the open quantity is undocumented: we read `num` [unverified].
 * - `GET /api/market/goods/bill_order?game=csgo&goods_id=` — recent trades `{price,
 *   transact_time, type, asset_info}` (`transact_time` in BetterBuff's SellOrder item type;
 *   older OSS crawlers read `buyer_pay_time`, which we fall back to).
 * - Doppler phases: Buff lists one goods per Steam name and tells phases by a per-goods tag
 *   (`tag_ids`, wasdejected/Getting-Buff163-Prices-With-API-Free:main.py); we read each
 *   listing's paint index instead (naming.ts), which needs no tag ids.
 * - Errors come as HTTP 200 with `code` other than "OK": "Login Required" (cookie missing or
 *   expired; OSS crawler notes report it for calls without a cookie), "Captcha Validate
 *   Required" (BetterBuff `CaptchaRequired`), busy answers Steamauto retries; the first two are
 *   reported as an `auth` failure (health shows the hint), any other code as `parse`.
 * Limits: none published. SCMM waits 3 s between pages because Buff's limit is "fairly
 * aggressive" and tied to the session (UpdateMarketItemPricesFromBuff.cs); one OSS note reports
 * bans after ~10 min at 5–10 s per request [unverified, possibly for price history]. We take the
 * slower side: one request per 5 s and 500 per hour. A poll is 20 requests (8 goods pages, or 7
 * and one name lookup, then sell/buy/bill orders for 4 items): at 2.5 min cadence that is
 * 24 × 20 = 480 requests/h (≤ 500; ≤ 720 by pacing) and ≥ 95 s of pacing per 150 s poll. With
 * ~300 catalog pages of 80, one pass over the catalog takes 300 / 8 ≈ 38 polls ≈ 95 min (up to
 * ~110 min while lookups run), so a name's goods-list ask/bid is at most ~2 h old; the wanted
 * items' details are refreshed every poll.
 * Left out: `price_history` (7/30/180-day charts; OSS notes warn it gets accounts locked),
 * pages 2+ of listings, buy orders and sales (budget), `tag_ids` phase filters, Rust and Dota 2.
 * Buff bodies carry no currency field, so CNY is assumed from every source, never checked.
 */
import { MINUTE, HOUR } from '../../domain/clock.ts';
import type { Connector } from '../connector.ts';
import { parseBillOrders } from './bills.ts';
import { parseGoods } from './goods.ts';
import { parseBuyOrders, parseSellOrders } from './orders.ts';
import { REQUESTS_PER_POLL, planPoll } from './plan.ts';
import { CURRENCY, SCALE, SESSION_ENV } from './shared.ts';

export const connector: Connector = {
  info: {
    id: 'buff163',
    displayName: 'BUFF163',
    games: ['cs2'],
    currency: CURRENCY,
    scale: SCALE,
    cadenceMs: 2.5 * MINUTE,
    capabilities: { asks: true, bids: true, sales: true, listings: true, floats: true },
    docsUrl: 'https://github.com/softwerk-org/csinvest-connector/tree/main/src/connector/buff163',
    baseUrl: 'https://buff.163.com',
    limits: [
      { requests: 1, windowMs: 5_000 },
      { requests: 500, windowMs: HOUR },
    ],
    credentials: [
      {
        env: SESSION_ENV,
        required: true,
        purpose:
          'value of the `session` cookie of a logged-in buff.163.com account (sent as `Cookie: session=…`); every endpoint used needs it',
      },
    ],
    supplies:
      'asks and bids (best price, counts) for the whole catalog in rotation; ask/bid ladders, listings with float/seed/phase/stickers and recent sales for the most wanted items',
  },
  requests: planPoll,
  parsers: {
    goods: parseGoods,
    sell_order: parseSellOrders,
    buy_order: parseBuyOrders,
    bill_order: parseBillOrders,
  },
  maxRequestsPerPoll: REQUESTS_PER_POLL,
};
