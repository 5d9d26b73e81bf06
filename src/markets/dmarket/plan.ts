/**
 * The requests of one DMarket poll, from the poll context alone. Aggregated prices go out in
 * chunks of 100 titles: the most wanted titles every poll, plus a window of the rest that moves
 * on each cadence slot (so the whole priority list is covered in turn). Last sales and
 * listings are per title, for a few of the most wanted titles, also rotated. With no
 * priorities at all, one unfiltered aggregated-prices request pages through the catalog.
 */
import type { Game } from '../../domain/games.ts';
import type { ConnectorRequest, PollContext } from '../connector.ts';
import { GAME_ID } from './units.ts';

export const AGGREGATED_PATH = '/marketplace-api/v1/aggregated-prices';
export const LAST_SALES_PATH = '/trade-aggregator/v1/last-sales';
export const OFFERS_PATH = '/marketplace-api/v2/offers';
/** Credential-carrying headers (added by `sign`). */
const SECRET_HEADERS = ['X-Api-Key', 'X-Request-Sign'] as const;

export const TITLES_PER_REQUEST = 100;
const FIXED_CHUNKS = 3;
const ROTATING_CHUNKS = 5;
const SALES_POOL = 30;
const SALES_PER_POLL = 3;
const LISTINGS_POOL = 20;
const LISTINGS_PER_POLL = 2;
/** DMarket's maximum for `last-sales` `limit` (swagger: min 1, max 20). */
const SALES_LIMIT = 20;
const LISTINGS_LIMIT = 50;
/** Follow-up pages one aggregated-prices chain may take within a poll. */
export const MAX_PAGES = 6;
/** Aggregated + sales + listings of a full poll (13), plus room for a couple of next pages. */
export const MAX_REQUESTS_PER_POLL = 15;

export interface AggregatedBody {
  filter: { game: string; titles?: readonly string[] };
  limit: string;
  cursor?: string;
}

export function aggregatedRequest(
  game: Game,
  titles: readonly string[] | null,
  cursor: string,
  page: number,
): ConnectorRequest {
  const filter = titles === null ? { game: GAME_ID[game] } : { game: GAME_ID[game], titles };
  const limit = String(titles === null ? TITLES_PER_REQUEST : titles.length);
  const body: AggregatedBody = cursor === '' ? { filter, limit } : { filter, limit, cursor };
  return {
    kind: 'aggregated_prices',
    game,
    method: 'POST',
    path: AGGREGATED_PATH,
    body,
    secret: SECRET_HEADERS,
    timeoutMs: 30_000,
    meta: { page },
  };
}

export function lastSalesRequest(game: Game, title: string): ConnectorRequest {
  return {
    kind: 'last_sales',
    game,
    method: 'GET',
    path: LAST_SALES_PATH,
    query: { gameId: GAME_ID[game], title, limit: SALES_LIMIT },
    secret: SECRET_HEADERS,
    timeoutMs: 20_000,
    meta: { title },
  };
}

export function offersRequest(game: Game, title: string): ConnectorRequest {
  return {
    kind: 'offers',
    game,
    method: 'GET',
    path: OFFERS_PATH,
    query: {
      gameId: GAME_ID[game],
      title,
      orderBy: 'price',
      orderDir: 'asc',
      limit: LISTINGS_LIMIT,
    },
    secret: SECRET_HEADERS,
    timeoutMs: 20_000,
    meta: { title },
  };
}

/** `size` names starting at the slot's offset, wrapping around; all of them when they fit. */
export function rotatingWindow(names: readonly string[], size: number, slot: number): string[] {
  if (names.length <= size) return [...names];
  const start = (slot * size) % names.length;
  const head = names.slice(start, start + size);
  return [...head, ...names.slice(0, size - head.length)];
}

function chunks(names: readonly string[], size: number): string[][] {
  const out: string[][] = [];
  for (let at = 0; at < names.length; at += size) out.push(names.slice(at, at + size));
  return out;
}

function distinctNames(priorities: readonly string[]): string[] {
  return [...new Set(priorities.filter((name) => name.trim() !== ''))];
}

export function planRequests(ctx: PollContext, cadenceMs: number): ConnectorRequest[] {
  const names = distinctNames(ctx.priorities);
  if (names.length === 0) return [aggregatedRequest(ctx.game, null, '', 1)];
  const slot = Math.floor(ctx.now / cadenceMs);
  const fixedCount = FIXED_CHUNKS * TITLES_PER_REQUEST;
  const titles = [
    ...names.slice(0, fixedCount),
    ...rotatingWindow(names.slice(fixedCount), ROTATING_CHUNKS * TITLES_PER_REQUEST, slot),
  ];
  const requests = chunks(titles, TITLES_PER_REQUEST).map((chunk) =>
    aggregatedRequest(ctx.game, chunk, '', 1),
  );
  for (const title of rotatingWindow(names.slice(0, SALES_POOL), SALES_PER_POLL, slot)) {
    requests.push(lastSalesRequest(ctx.game, title));
  }
  if (ctx.game === 'cs2') {
    for (const title of rotatingWindow(names.slice(0, LISTINGS_POOL), LISTINGS_PER_POLL, slot)) {
      requests.push(offersRequest(ctx.game, title));
    }
  }
  return requests;
}
