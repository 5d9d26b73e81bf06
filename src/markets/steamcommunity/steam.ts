/**
 * Steam Community Market facts shared by the poll planner and the parsers: app ids, the units
 * every observation carries (USD cents, asked for with `currency=1`), the keys under which
 * parsers leave facts for later polls, and the item name a per-item request was made for.
 */
import type { Game } from '../../domain/games.ts';
import type { ParseContext } from '../connector.ts';
import { observationBase } from '../formats/bulk-asks.ts';
import type { SourceTime } from '../formats/common.ts';

export const APP_ID: Readonly<Record<Game, number>> = { cs2: 730, rust: 252490 };
export const CURRENCY = 'USD';
export const SCALE = 100;
/** Steam's own currency code for USD (ECurrencyCode 1). */
export const STEAM_USD = 1;
export const ORIGIN = 'https://steamcommunity.com';
/** None of these bodies carries a time of its own. */
export const NO_SOURCE_TIME: SourceTime = { at: null, kind: null };

/** Memory key of an item's `item_nameid` (digits), or `none@<ms>` when its page had none. */
export function nameIdKey(game: Game, name: string): string {
  return `nameid:${game}:${name}`;
}

/** Memory key of the `start` the next poll's first search page begins at. */
export function searchCursorKey(game: Game): string {
  return `search-start:${game}`;
}

export const steamBase = observationBase('steamcommunity', CURRENCY, SCALE);

/** The market_hash_name a per-item request carried in `meta.name`. */
export function requestedName(ctx: ParseContext): string | null {
  const name = ctx.request.meta?.name;
  return typeof name === 'string' && name.trim() !== '' ? name : null;
}

/**
 * The listing page path: the name percent-encoded as RFC 3986 data (what SCMM's
 * `Uri.EscapeDataString` produces), so `|`, `(`, `★` and `™` survive any URL parser.
 */
export function listingPath(game: Game, name: string): string {
  const encoded = encodeURIComponent(name).replace(
    /[!'()*]/g,
    (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `/market/listings/${APP_ID[game]}/${encoded}`;
}
