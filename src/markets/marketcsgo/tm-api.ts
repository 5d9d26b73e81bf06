/**
 * The TM API shared by market.csgo.com (CS2) and its sister site rust.tm (Rust): one poll is the
 * two keyless USD exports (asks, buy orders) and, when an API key is set, a bid-ask ladder for
 * each of a few most-wanted names plus one `get-list-items-info` request for their recent sales.
 * Each site's `connector.ts` supplies its id, origin, game, cadence and key; the facts, sources
 * and budget arithmetic are in `marketcsgo/connector.ts`.
 */
import { MINUTE, SECOND } from '../../domain/clock.ts';
import type { Game } from '../../domain/games.ts';
import type { MarketId } from '../../domain/markets.ts';
import { PHASE_LABELS } from '../../catalog/cs2/doppler.ts';
import type { Connector, ConnectorRequest, PollContext } from '../connector.ts';
import { bulkGet } from '../formats/bulk-asks.ts';
import { TM_CURRENCY, TM_SCALE, exportParser } from './parse-exports.ts';
import { bidAskParser, itemsInfoParser } from './parse-keyed.ts';

export interface TmSite {
  id: MarketId;
  displayName: string;
  game: Game;
  baseUrl: string;
  docsUrl: string;
  cadenceMs: number;
  /** Env var of the optional API key, passed as the `key` query parameter. */
  keyEnv: string;
  supplies: string;
}

/** Names per poll that get a bid-ask request; the same names share one sales request. */
export const KEYED_ITEMS_PER_POLL = 10;
const EXPORT_REQUESTS = 2;
export const TM_MAX_REQUESTS_PER_POLL = EXPORT_REQUESTS + KEYED_ITEMS_PER_POLL + 1;

/** 5 req/s deletes the key (official); we stay at 2/s and 20/min for the whole origin. */
export const TM_LIMITS = [
  { requests: 2, windowMs: SECOND },
  { requests: 20, windowMs: MINUTE },
];

const PHASED_NAME = new RegExp(`\\| (?:Gamma )?Doppler (?:${PHASE_LABELS.join('|')})\\b`);

/**
 * Most-wanted names first, each once. Phase-spliced Doppler names are skipped: the `phase`
 * parameter's values are not documented, and we do not guess them.
 */
export function keyedNames(priorities: readonly string[]): string[] {
  const names: string[] = [];
  for (const name of priorities) {
    if (names.length === KEYED_ITEMS_PER_POLL) break;
    if (name.trim() === '' || PHASED_NAME.test(name) || names.includes(name)) continue;
    names.push(name);
  }
  return names;
}

function keyedRequests(ctx: PollContext, key: string): ConnectorRequest[] {
  const names = keyedNames(ctx.priorities);
  if (names.length === 0) return [];
  const keyed = { game: ctx.game, method: 'GET', secret: ['key'], timeoutMs: 20_000 } as const;
  const ladders = names.map((name): ConnectorRequest => ({
    ...keyed,
    kind: 'bid_ask',
    path: '/api/v2/bid-ask',
    query: { key, hash_name: name },
    meta: { item: name },
  }));
  const sales: ConnectorRequest = {
    ...keyed,
    kind: 'items_info',
    path: '/api/v2/get-list-items-info',
    query: { key, 'list_hash_name[]': names },
  };
  return [...ladders, sales];
}

export function tmConnector(site: TmSite): Connector {
  return {
    info: {
      id: site.id,
      displayName: site.displayName,
      games: [site.game],
      currency: TM_CURRENCY,
      scale: TM_SCALE,
      cadenceMs: site.cadenceMs,
      capabilities: { asks: true, bids: true, sales: true, listings: false, floats: false },
      docsUrl: site.docsUrl,
      baseUrl: site.baseUrl,
      limits: TM_LIMITS,
      credentials: [
        {
          env: site.keyEnv,
          required: false,
          purpose: 'bid/ask ladders and recent sales of the most-wanted items',
        },
      ],
      supplies: site.supplies,
    },
    requests(ctx) {
      const key = ctx.credentials[site.keyEnv];
      return [
        bulkGet('prices', ctx.game, '/api/v2/prices/USD.json'),
        bulkGet('orders', ctx.game, '/api/v2/prices/orders/USD.json'),
        ...(key ? keyedRequests(ctx, key) : []),
      ];
    },
    parsers: {
      prices: exportParser(site.id, 'ask'),
      orders: exportParser(site.id, 'bid'),
      bid_ask: bidAskParser(site.id),
      items_info: itemsInfoParser(site.id),
    },
    maxRequestsPerPoll: TM_MAX_REQUESTS_PER_POLL,
  };
}
