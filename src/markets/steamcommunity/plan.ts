/**
 * One poll's requests, within a fixed budget of MAX_REQUESTS_PER_POLL (follow-ups included):
 * first the order book and 24 h sales summary of the most wanted items (`ctx.priorities`),
 * then SEARCH_PAGES_PER_POLL pages of the bulk search, resuming where the last poll stopped.
 * An item whose `item_nameid` is not yet known costs one more request (its listing page,
 * whose parser then asks for the histogram); an item whose page had no id is left alone for
 * NAMEID_RETRY_MS. Items are taken strictly in priority order: the first that no longer fits
 * ends the list, so a costly item is never skipped in favour of a cheaper one behind it.
 */
import { HOUR } from '../../domain/clock.ts';
import type { Game } from '../../domain/games.ts';
import type { ConnectorRequest, PollContext } from '../connector.ts';
import { readCount } from '../formats/common.ts';
import { APP_ID, ORIGIN, STEAM_USD, listingPath, nameIdKey, searchCursorKey } from './steam.ts';

export const MAX_REQUESTS_PER_POLL = 10;
export const SEARCH_PAGES_PER_POLL = 2;
/** SCMM's maximum page size; anonymous callers reportedly get 10 whatever is asked. */
export const SEARCH_PAGE_SIZE = 100;
export const NAMEID_RETRY_MS = 6 * HOUR;
const TIMEOUT_MS = 20_000;
/** Listing pages are HTML of a few hundred kB. */
const LISTING_PAGE_MAX_BYTES = 4 * 1024 * 1024;

/** Steam's own pages send the listing page as Referer; SCMM does the same. */
function referer(game: Game, name: string): Record<string, string> {
  return { Referer: `${ORIGIN}${listingPath(game, name)}` };
}

export function searchRequest(game: Game, start: number, pagesLeft: number): ConnectorRequest {
  return {
    kind: 'search',
    game,
    method: 'GET',
    path: '/market/search/render/',
    query: {
      norender: 1,
      appid: APP_ID[game],
      start,
      count: SEARCH_PAGE_SIZE,
      sort_column: 'name',
      sort_dir: 'asc',
      currency: STEAM_USD,
    },
    timeoutMs: TIMEOUT_MS,
    meta: { pagesLeft },
  };
}

export function listingPageRequest(game: Game, name: string): ConnectorRequest {
  return {
    kind: 'listing_page',
    game,
    method: 'GET',
    path: listingPath(game, name),
    expect: 'text',
    timeoutMs: TIMEOUT_MS,
    maxBytes: LISTING_PAGE_MAX_BYTES,
    meta: { name },
  };
}

export function histogramRequest(game: Game, name: string, nameId: string): ConnectorRequest {
  return {
    kind: 'histogram',
    game,
    method: 'GET',
    path: '/market/itemordershistogram',
    query: {
      country: 'US',
      language: 'english',
      currency: STEAM_USD,
      item_nameid: nameId,
      two_factor: 0,
      norender: 1,
    },
    headers: referer(game, name),
    timeoutMs: TIMEOUT_MS,
    meta: { name },
  };
}

export function priceOverviewRequest(game: Game, name: string): ConnectorRequest {
  return {
    kind: 'price_overview',
    game,
    method: 'GET',
    path: '/market/priceoverview/',
    query: { appid: APP_ID[game], currency: STEAM_USD, market_hash_name: name },
    headers: referer(game, name),
    timeoutMs: TIMEOUT_MS,
    meta: { name },
  };
}

type NameId = { id: string } | 'scrape' | 'skip';

function nameIdOf(ctx: PollContext, name: string): NameId {
  const known = ctx.memory.get(nameIdKey(ctx.game, name));
  if (known !== undefined && /^\d+$/.test(known)) return { id: known };
  const missedAt = known?.startsWith('none@') ? readCount(known.slice('none@'.length)) : null;
  return missedAt !== null && ctx.now - missedAt < NAMEID_RETRY_MS ? 'skip' : 'scrape';
}

/** Histogram (after the listing page when needed) and price overview, top items first. */
function itemRequests(ctx: PollContext, budget: number): ConnectorRequest[] {
  const requests: ConnectorRequest[] = [];
  let left = budget;
  for (const name of new Set(ctx.priorities)) {
    const nameId = nameIdOf(ctx, name);
    if (nameId === 'skip') continue;
    const cost = nameId === 'scrape' ? 3 : 2;
    if (cost > left) break;
    left -= cost;
    requests.push(
      nameId === 'scrape'
        ? listingPageRequest(ctx.game, name)
        : histogramRequest(ctx.game, name, nameId.id),
      priceOverviewRequest(ctx.game, name),
    );
  }
  return requests;
}

export function planPoll(ctx: PollContext): ConnectorRequest[] {
  const start = readCount(ctx.memory.get(searchCursorKey(ctx.game))) ?? 0;
  return [
    ...itemRequests(ctx, MAX_REQUESTS_PER_POLL - SEARCH_PAGES_PER_POLL),
    searchRequest(ctx.game, start, SEARCH_PAGES_PER_POLL - 1),
  ];
}
