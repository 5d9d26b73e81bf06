/**
 * The requests of one Waxpeer poll: the keyless price list, the Doppler list (CS2), then, with a
 * key, `mass-info` for the most wanted names (phases stripped, as Waxpeer is asked by Steam
 * name), 50 names a request. The Doppler list comes after the price list on purpose: where both
 * name the same phase, ingest keeps the later snapshot, and the Doppler one has the full ladder.
 */
import type { Game } from '../../domain/games.ts';
import type { ConnectorRequest, PollContext } from '../connector.ts';
import { MIB, bulkGet } from '../formats/bulk-asks.ts';
import { withoutPhase } from './names.ts';

export const API_KEY = 'PRICING_WAXPEER_API_KEY';
const GAME: Readonly<Record<Game, string>> = { cs2: 'csgo', rust: 'rust' };
const NAMES_PER_REQUEST = 50;
const MASS_INFO_REQUESTS = 2;
export const MAX_REQUESTS = 2 + MASS_INFO_REQUESTS;

function prices(game: Game): ConnectorRequest {
  const query = { game: GAME[game], minified: 0, highest_offer: 1 };
  return { ...bulkGet('prices', game, '/v1/prices', query), maxBytes: 48 * MIB };
}

function dopplers(key: string | undefined): ConnectorRequest {
  const query = { phase: 'any', minified: 0, ...(key ? { api: key } : {}) };
  return {
    ...bulkGet('dopplers', 'cs2', '/v1/prices/dopplers', query),
    ...(key ? { secret: ['api'] } : {}),
    maxBytes: 16 * MIB,
  };
}

function massInfo(game: Game, key: string, names: string[]): ConnectorRequest {
  return {
    kind: 'mass_info',
    game,
    method: 'POST',
    path: '/v1/mass-info',
    query: { game: GAME[game], api: key },
    body: { name: names, sell: 1 },
    secret: ['api'],
    timeoutMs: 30_000,
  };
}

/** The first names of `priorities` by Steam name, without repeats. */
export function wantedNames(priorities: readonly string[], limit: number): string[] {
  const names = new Set<string>();
  for (const name of priorities) {
    if (names.size >= limit) break;
    names.add(withoutPhase(name));
  }
  return [...names];
}

export function pollRequests(ctx: PollContext): ConnectorRequest[] {
  const key = ctx.credentials[API_KEY] || undefined;
  const requests = [prices(ctx.game)];
  if (ctx.game === 'cs2') requests.push(dopplers(key));
  if (!key) return requests;
  const names = wantedNames(ctx.priorities, NAMES_PER_REQUEST * MASS_INFO_REQUESTS);
  for (let start = 0; start < names.length; start += NAMES_PER_REQUEST) {
    requests.push(massInfo(ctx.game, key, names.slice(start, start + NAMES_PER_REQUEST)));
  }
  return requests;
}
