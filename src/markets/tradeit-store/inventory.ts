/**
 * Tradeit.gg's bot inventory, shared by the two views of the site: `tradeit-store` (what the
 * store sells an item for, `storePrice`) and `tradeit-trade` (what it is worth in a trade,
 * `price`). Tradeit publishes no API; everything here is the site's own web endpoint as public
 * clients read it:
 * - `GET https://tradeit.gg/api/v2/inventory/data?gameId=<app>&sortType=Popularity&offset=<n>
 *   &limit=1000&fresh=true`, no auth, pages of at most 1000 (`MaxPageLimit`); SCMM moves
 *   `offset` on by the limit while a page comes back full (SCMM
 *   `SCMM.Market.TradeitGG.Client/TradeitGGWebClient.cs`, `SCMM.Steam.Functions/Timer/
 *   UpdateMarketItemPricesFromTradeitGG.cs`).
 * - Body `{items: [...], counts: {<groupId>: n}}` (SCMM `TradeitGGInventoryDataResponse.cs`);
 *   BetterFloat adds `activeBots`, `badBots`, `bestAvailableBotsMax` and types an item with
 *   `name`, `groupId`, `price`, `priceForTrade`, `sitePrice`, `storePrice`, `storeBasePrice`,
 *   `phase`, `floatValue`, `paintIndex`, … (`GODrums/BetterFloat:src/lib/@typings/
 *   TradeitTypes.d.ts`, `BotDataResponse`; `xfelipesobral/tradeit-skin-notifier:
 *   @types/tradeit.d.ts` has the same item fields). `counts` is the stock per group, keyed by
 *   `groupId` (SCMM joins the two), and is an empty array rather than an object when there is
 *   none (SCMM's comment in `GetInventoryDataAsync`).
 * - Units: integer US cents. SCMM reads `price` as a `long` into its cents exchange ("Prices
 *   are returned in USD by default"); BetterFloat divides `storePrice` (on `/csgo/store`) and
 *   `price` (elsewhere) by 100 (`src/contents/tradeit/index.ts`, `getItemPrice`).
 * - Doppler names: BetterFloat strips ` <phase>` from the name and reads `phase` beside it, so
 *   names may carry the phase already; `withPhase` splices `phase` in only where it is missing.
 * - Limits: none published; SCMM reads the inventory every 30 minutes. Both views fetch the
 *   same pages on their own budgets, so each polls every 15 minutes (not 5) and follows at
 *   most 30 pages (30 000 groups), one request per 2 seconds: CS2 and Rust together then send
 *   at most 60 requests per 15 minutes per view (240 an hour), which is the budget.
 * - The store view asks with `isForStore=1`: public clients send `isForStore=0/1` and
 *   BetterFloat reads `storePrice` only on the site's store page, where it is optional in the
 *   trade view (connector-audit.md #16) [?: unconfirmed]. A store answer whose rows lack
 *   `storePrice` has each row refused (`no storePrice`), so the poll fails as `no_data` with
 *   that reason, never priced from the trade value.
 * - Caveats: an OSS probe reported this endpoint answering 404 (markets.md, "tradeit"), while
 *   BetterFloat's current code still reads it; SCMM sent browser-like headers to get past the
 *   site's Cloudflare rules. We send neither, so a challenge page fails the poll as `blocked`
 *   (the shared HTTP client), not as wrong prices. The default view is grouped: one representative row per group, whose price
 *   is taken as the group's ask (as SCMM does); floats, paint indexes and inspect links of that
 *   one row are not read as listings.
 */
import { MINUTE, SECOND } from '../../domain/clock.ts';
import type { Game } from '../../domain/games.ts';
import type { RawLevel } from '../../domain/observation.ts';
import type {
  Connector,
  ConnectorRequest,
  PageResult,
  ParseContext,
  ResponseParser,
} from '../connector.ts';
import { ResultBuilder, isRecord, malformedBody, readCount, readName } from '../formats/common.ts';
import { integerPrice } from '../formats/prices.ts';
import { withPhase } from '../naming.ts';

export const CURRENCY = 'USD';
export const SCALE = 100;
export const PAGE = 1000;
export const MAX_PAGES = 30;
const APP_ID: Readonly<Record<Game, number>> = { cs2: 730, rust: 252490 };
const NO_TIME = { at: null, kind: null };

type View = 'tradeit-store' | 'tradeit-trade';

export function inventoryPage(game: Game, offset: number, view: View): ConnectorRequest {
  const query = {
    gameId: APP_ID[game],
    sortType: 'Popularity',
    offset,
    limit: PAGE,
    fresh: 'true',
  };
  return {
    kind: 'inventory',
    game,
    method: 'GET',
    path: '/api/v2/inventory/data',
    query: view === 'tradeit-store' ? { ...query, isForStore: 1 } : query,
    timeoutMs: 60_000,
  };
}

interface Entry {
  /** Lowest price among groups in stock (or of unknown stock); null when all are at 0. */
  price: number | null;
  /** Stock per group; null where `counts` does not say. */
  groups: Map<string, number | null>;
}

function readCounts(raw: unknown): Record<string, unknown> | null {
  if (isRecord(raw)) return raw;
  return Array.isArray(raw) && raw.length === 0 ? {} : null;
}

function groupKey(raw: unknown): string | null {
  if (typeof raw === 'number' && Number.isSafeInteger(raw)) return String(raw);
  return readName(raw);
}

function listingCount(entry: Entry): number | null {
  let total = 0;
  for (const count of entry.groups.values()) {
    if (count === null) return null;
    total += count;
  }
  return total;
}

/** One ask per name: the lowest price among its groups, their stock summed. */
function collect(
  rows: readonly unknown[],
  counts: Record<string, unknown>,
  field: string,
  out: ResultBuilder,
): Map<string, Entry> {
  const entries = new Map<string, Entry>();
  rows.forEach((row, index) => {
    const rawName = isRecord(row) ? readName(row.name) : null;
    const group = isRecord(row) ? groupKey(row.groupId) : null;
    if (!isRecord(row) || rawName === null || group === null) {
      return out.reject({ reason: 'malformed', detail: 'no name or groupId' }, `item ${index}`);
    }
    const name = withPhase(rawName, row.phase);
    if (row[field] === undefined || row[field] === null) {
      return out.reject({ reason: 'malformed', detail: `no ${field}` }, name);
    }
    const price = integerPrice(row[field]);
    if (!price.ok) return out.reject(price.rejection, name);
    const count = counts[group] === undefined ? null : readCount(counts[group]);
    if (counts[group] !== undefined && count === null) {
      return out.reject({ reason: 'malformed', detail: `count of group ${group}` }, name);
    }
    const entry = entries.get(name) ?? { price: null, groups: new Map() };
    if (count !== 0) entry.price = Math.min(entry.price ?? price.value, price.value);
    entry.groups.set(group, count);
    entries.set(name, entry);
  });
  return entries;
}

/** A parser reading `field` as the ask of `market`, with the next page while pages are full. */
export function inventoryParser(market: View, field: 'storePrice' | 'price'): ResponseParser {
  return (body: unknown, ctx: ParseContext): PageResult => {
    const rows = isRecord(body) ? body.items : undefined;
    const counts = isRecord(body) ? readCounts(body.counts) : null;
    if (!Array.isArray(rows) || counts === null) {
      return malformedBody('expected {items: [...], counts: {groupId: n}}');
    }
    const out = new ResultBuilder();
    for (const [item, entry] of collect(rows, counts, field, out)) {
      const stock = listingCount(entry);
      const levels: RawLevel[] =
        entry.price === null ? [] : [{ price: entry.price, quantity: 1, orders: null }];
      const base = { game: ctx.game, market, item, currency: CURRENCY, scale: SCALE };
      out.side(base, 'ask', { ok: true, value: levels }, stock, ctx.now, NO_TIME);
    }
    const result: PageResult = out.result();
    const offset = readCount(ctx.request.query?.offset) ?? 0;
    if (rows.length >= PAGE) result.next = [inventoryPage(ctx.game, offset + PAGE, market)];
    return result;
  };
}

/** The connector of one view; only the id, names and price field differ. */
export function tradeitConnector(
  id: View,
  displayName: string,
  field: 'storePrice' | 'price',
  supplies: string,
): Connector {
  return {
    info: {
      id,
      displayName,
      games: ['cs2', 'rust'],
      currency: CURRENCY,
      scale: SCALE,
      cadenceMs: 15 * MINUTE,
      capabilities: { asks: true, bids: false, sales: false, listings: false, floats: false },
      docsUrl:
        'https://github.com/Steam-Community-Market-Manager/SCMM/tree/main/SCMM.Market.TradeitGG.Client',
      baseUrl: 'https://tradeit.gg',
      limits: [
        { requests: 2 * MAX_PAGES, windowMs: 15 * MINUTE },
        { requests: 1, windowMs: 2 * SECOND },
      ],
      credentials: [],
      supplies,
    },
    requests: (ctx) => [inventoryPage(ctx.game, 0, id)],
    parsers: { inventory: inventoryParser(id, field) },
    maxRequestsPerPoll: MAX_PAGES,
  };
}
