/**
 * LIS-SKINS (no published docs for the exports; https://lis-skins.com/market_export_json/csgo.json
 * is the reference). The facts below come from markets.md ("lisskins") and from public code that
 * the index found by `market_export_json` and `unlocked_price` without naming its repositories.
 * Those are quoted by what they say:
 * - `GET https://lis-skins.com/market_export_json/csgo.json` and `…/rust.json` need no key. Each
 *   is a JSON array with one row per item name, `{name, price, unlocked_price, count, url}`
 *   (markets.md; a JS "LIS-SKINS connector — LIVE source adapter" that lists the per-game exports
 *   csgo/rust/dota2; test payloads of the same shape in a C# `LisSkinsServiceTests`, a Python
 *   `LisSkinsClient` test and a Node `LISSkinsParser` for rust.json).
 * - USD, decimal, with cents (`27.43`, `0.43`). The export has no currency field. That connector
 *   verified "AK-47 | Redline (FT) = 27.43 USD, decimal units" on the live file (23,938 rows).
 *   A CS2 arbitrage bot's README says LIS-SKINS prices "in USD" are converted to roubles at the
 *   CBR rate, and its client test converts with a `usd_to_rub` rate. So the connector declares
 *   USD at scale 100.
 * - `price` is the lowest price over every listing under the name, trade-locked ones included.
 *   `unlocked_price` is the lowest price among listings that can be traded now. The connector
 *   calls it "nullable" and says it "equals `price` when no trade-locked stock is present". A
 *   Python client's `lis_skins_only_unlocked` option prices rows by `unlocked_price` and drops
 *   rows where it is 0. Test payloads show `price` ≤ `unlocked_price` (75 and 80; 9.99 and
 *   10.50). One payload has the reverse (36.2 and 35) but looks made up. `count` counts every
 *   listing, locked or not.
 * - The ask is `unlocked_price`. A trade-locked skin cannot be delivered or resold for up to a
 *   week, so its discounted `price` would make LIS-SKINS look cheaper than markets that sell
 *   tradable items. With no unlocked listing (null or 0) the ask side is empty with count 0.
 *   Otherwise the listing count is `count`, an upper bound, because the export does not split it.
 *   A row without the field is refused, so a format change shows up as rejections.
 * - Doppler phases are written into the name (`★ Butterfly Knife | Gamma Doppler Phase 4
 *   (Minimal Wear)` in a public price watcher's list of export names). Names pass through
 *   unchanged and ingest resolves the spliced phase.
 * - Limits: none published, and a Python LIS client notes that LIS asks integrators to rely on
 *   the JSON price lists and the websocket rather than `/v1/market/search`. The exports are
 *   static files read whole: one request per game per 10-minute poll (12 an hour), under a budget
 *   of 4 requests per 10 minutes for the origin, which leaves room for one retry per game.
 *   csgo.json is about 24,000 rows (a few MB). `maxBytes` is 32 MB, the timeout 60 s, and the
 *   request revalidates with ETag / Last-Modified.
 * Left out: `api_csgo_full.json` (about 173 MB, every listing with `id`, `created_at`,
 *   `unlock_at`; far too big to poll), the `api_*_unlocked.json` listing dumps, the websocket,
 *   and the keyed `api.lis-skins.com/v1/market/search` (Bearer token, cursor paging; its
 *   stoplight docs were not available to verify). So: no bids, sales, listings or floats.
 */
import { MINUTE } from '../../domain/clock.ts';
import type { Game } from '../../domain/games.ts';
import type { Connector, PageResult, ParseContext } from '../connector.ts';
import {
  askRows,
  bulkGet,
  nameField,
  observationBase,
  type AskRow,
  type AskRows,
} from '../formats/bulk-asks.ts';
import { fail, malformedBody, readCount, type Read } from '../formats/common.ts';
import { decimalPrice } from '../formats/prices.ts';

const CURRENCY = 'USD';
const SCALE = 100;
const EXPORT: Readonly<Record<Game, string>> = { cs2: 'csgo.json', rust: 'rust.json' };

/** The tradable-now ask: `unlocked_price`; none (count 0) when nothing is unlocked. */
function unlockedAsk(row: Record<string, unknown>): Read<AskRow> {
  const count = readCount(row.count);
  if (count === null) return fail('malformed', 'count');
  if (!Object.hasOwn(row, 'unlocked_price')) return fail('malformed', 'no unlocked_price');
  const raw = row.unlocked_price;
  const none = raw === null || raw === 0 || raw === '0';
  return { ok: true, value: none ? { price: null, count: 0 } : { price: raw, count } };
}

const ROWS: AskRows = {
  ...nameField('row', 'name'),
  base: observationBase('lis-skins', CURRENCY, SCALE),
  price: decimalPrice(SCALE),
  ask: unlockedAsk,
};

/**
 * Sample: [{"name":"AK-47 | Redline (Field-Tested)","price":27.43,"unlocked_price":27.43,
 * "url":"https://lis-skins.com/market/csgo/ak-47-redline-field-tested/","count":2544}]
 */
export function parseExport(body: unknown, ctx: ParseContext): PageResult {
  if (!Array.isArray(body)) return malformedBody('expected an array of {name, price, …}');
  return askRows(body, ROWS, ctx);
}

export const connector: Connector = {
  info: {
    id: 'lis-skins',
    displayName: 'LIS-SKINS',
    games: ['cs2', 'rust'],
    currency: CURRENCY,
    scale: SCALE,
    cadenceMs: 10 * MINUTE,
    capabilities: { asks: true, bids: false, sales: false, listings: false, floats: false },
    docsUrl: 'https://lis-skins.com/market_export_json/csgo.json',
    baseUrl: 'https://lis-skins.com',
    limits: [{ requests: 4, windowMs: 10 * MINUTE }],
    credentials: [],
    supplies: 'asks (lowest tradable-now price, listing count) for every item',
  },
  requests: (ctx) => [bulkGet('export', ctx.game, `/market_export_json/${EXPORT[ctx.game]}`)],
  parsers: { export: parseExport },
  maxRequestsPerPoll: 1,
};
