/**
 * The requests of one Buff163 poll. A poll reads a slice of the goods list (the catalog is a
 * few hundred pages of 80; the slice starts where the last poll stopped and wraps around) and,
 * for the most wanted items whose goods_id an earlier page taught us, the listings, buy orders
 * and recent sales. Only the first goods page goes out at once: it carries the poll's detail
 * plan in its `meta`, and its parser releases the detail requests only when Buff accepted the
 * session, so an expired cookie costs one request per poll instead of twenty.
 */
import { DAY } from '../../domain/clock.ts';
import type { Game } from '../../domain/games.ts';
import type { ConnectorRequest, PollContext } from '../connector.ts';
import { readCount } from '../formats/common.ts';
import { SESSION_ENV, memoryKey, steamName } from './shared.ts';

export const PAGE_SIZE = 80;
export const PAGES_PER_POLL = 8;
export const DETAIL_ITEMS = 4;
const DETAIL_KINDS = 3;
export const REQUESTS_PER_POLL = PAGES_PER_POLL + DETAIL_ITEMS * DETAIL_KINDS;
/** A name Buff's search did not find is searched again at most this often. */
export const LOOKUP_AGAIN_MS = DAY;
const TIMEOUT_MS = 20_000;
const REFERER = 'https://buff.163.com/market/csgo';

type Headers = Readonly<Record<string, string>>;

/**
 * A detail target: goods_id, Steam name, the newest sale time (ms) already delivered, and the
 * goods list's last `sell_num` (-1 when not known yet).
 */
export type Detail = [goodsId: number, name: string, since: number, sellNum: number];

function sessionHeaders(session: string): Headers {
  return { Cookie: `session=${session}; Locale-Supported=en`, Referer: REFERER };
}

function get(
  kind: string,
  game: Game,
  path: string,
  query: Record<string, string | number>,
  headers: Headers,
  meta: Record<string, string | number>,
): ConnectorRequest {
  return {
    kind,
    game,
    method: 'GET',
    path,
    query: { game: 'csgo', ...query },
    headers,
    secret: ['Cookie'],
    timeoutMs: TIMEOUT_MS,
    meta,
  };
}

export interface PageStep {
  page: number;
  /** The page this poll started at (the slice stops before coming back to it). */
  first: number;
  /** How many more pages this poll may read after this one. */
  left: number;
  /** 1 once the slice has wrapped from the last page to page 1. */
  wrapped: number;
}

export function goodsPage(game: Game, step: PageStep, headers: Headers): ConnectorRequest {
  const query = { page_num: step.page, page_size: PAGE_SIZE, sort_by: 'price.desc' };
  return get('goods', game, '/api/market/goods', query, headers, { ...step });
}

export function lookupRequest(game: Game, name: string, headers: Headers): ConnectorRequest {
  const query = { page_num: 1, page_size: PAGE_SIZE, search: name };
  return get('goods', game, '/api/market/goods', query, headers, { search: name });
}

export function detailRequests(game: Game, detail: Detail, headers: Headers): ConnectorRequest[] {
  const [goodsId, name, since, sellNum] = detail;
  const meta = { goods_id: goodsId, name };
  const path = (what: string) => `/api/market/goods/${what}`;
  const sellQuery = { goods_id: goodsId, page_num: 1, sort_by: 'price.asc' };
  const sellMeta = sellNum >= 0 ? { ...meta, sell_num: sellNum } : meta;
  return [
    get('sell_order', game, path('sell_order'), sellQuery, headers, sellMeta),
    get('buy_order', game, path('buy_order'), { goods_id: goodsId, page_num: 1 }, headers, meta),
    get('bill_order', game, path('bill_order'), { goods_id: goodsId }, headers, { ...meta, since }),
  ];
}

interface Picked {
  details: Detail[];
  lookup: string | null;
}

/** Walks the priorities (as Steam names) until DETAIL_ITEMS have a known goods_id. */
function pickItems(ctx: PollContext): Picked {
  const picked: Picked = { details: [], lookup: null };
  const seen = new Set<string>();
  for (const wanted of ctx.priorities) {
    if (picked.details.length === DETAIL_ITEMS) break;
    const name = steamName(wanted);
    if (seen.has(name)) continue;
    seen.add(name);
    const goodsId = readCount(ctx.memory.get(memoryKey.goodsId(name)));
    if (goodsId !== null) {
      const since = readCount(ctx.memory.get(memoryKey.lastSale(goodsId))) ?? 0;
      const sellNum = readCount(ctx.memory.get(memoryKey.sellNum(goodsId))) ?? -1;
      picked.details.push([goodsId, name, since, sellNum]);
    } else if (picked.lookup === null) {
      const lookedUp = readCount(ctx.memory.get(memoryKey.lookedUp(name)));
      if (lookedUp === null || ctx.now - lookedUp >= LOOKUP_AGAIN_MS) picked.lookup = name;
    }
  }
  return picked;
}

/** Nothing works without the session cookie; Buff is CS2-only. */
export function planPoll(ctx: PollContext): ConnectorRequest[] {
  const session = ctx.credentials[SESSION_ENV];
  if (!session || ctx.game !== 'cs2') return [];
  const { details, lookup } = pickItems(ctx);
  const start = readCount(ctx.memory.get(memoryKey.nextPage)) || 1;
  const pages = PAGES_PER_POLL - (lookup === null ? 0 : 1);
  const step = { page: start, first: start, left: pages - 1, wrapped: 0 };
  const request = goodsPage(ctx.game, step, sessionHeaders(session));
  const meta: Record<string, string | number> = { ...request.meta };
  if (details.length > 0) meta.details = JSON.stringify(details);
  if (lookup !== null) meta.lookup = lookup;
  return [{ ...request, meta }];
}

function readDetails(raw: unknown): Detail[] {
  if (typeof raw !== 'string') return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return [];
  }
  if (!Array.isArray(parsed)) return [];
  return parsed.filter(
    (entry): entry is Detail =>
      Array.isArray(entry) &&
      readCount(entry[0]) !== null &&
      typeof entry[1] === 'string' &&
      readCount(entry[2]) !== null &&
      (entry[3] === -1 || readCount(entry[3]) !== null),
  );
}

/** The lookup and detail requests a poll's first page carries in its `meta`. */
export function followUps(request: ConnectorRequest): ConnectorRequest[] {
  const headers = request.headers ?? {};
  const lookup = request.meta?.lookup;
  const next = typeof lookup === 'string' ? [lookupRequest(request.game, lookup, headers)] : [];
  for (const detail of readDetails(request.meta?.details)) {
    next.push(...detailRequests(request.game, detail, headers));
  }
  return next;
}
