/** Parameter rules shared by the routes: the `markets` CSV and item lookup. */
import type { Catalog } from '../catalog/catalog.ts';
import { ambiguousItem, ApiError, badRequest, notFound } from '../domain/errors.ts';
import type { Game } from '../domain/games.ts';
import { sentence } from '../domain/parameter-sentences.ts';
import type { CatalogItem } from '../domain/item.ts';
import { MARKETS_BY_GAME, type MarketId } from '../domain/markets.ts';
import { ALL_MARKETS, type MarketSelection } from '../pricing/top-of-book.ts';
import { selectItem } from '../schema/selectors.ts';

/**
 * `markets`: comma-separated ids, trimmed, duplicates ignored. Absent → all markets. Present
 * but empty → 400. Any id the game does not have → 400 naming the valid ids.
 */
export function parseMarkets(raw: string | undefined, game: Game): MarketSelection {
  if (raw === undefined) return ALL_MARKETS;
  const ids = raw
    .split(',')
    .map((id) => id.trim())
    .filter((id) => id.length > 0);
  if (ids.length === 0) throw badRequest([sentence.notEmpty('markets')]);
  const valid = MARKETS_BY_GAME[game];
  const unknown = [...new Set(ids.filter((id) => !(valid as readonly string[]).includes(id)))];
  if (unknown.length > 0) {
    throw badRequest([
      `markets contains unknown market ids for ${game}: ${unknown.join(', ')}; valid ids: ${valid.join(', ')}`,
    ]);
  }
  return { markets: new Set(ids as MarketId[]) };
}

/**
 * The item a selector names (src/schema/selectors.ts): exact market hash name, canonical id,
 * slug, or the name in any letter case; 409 naming the candidates when the selector matches
 * several items, 404 `Not found` when none.
 */
export function findItem(catalog: Catalog, nameOrId: string): CatalogItem {
  const exact = nameOrId.length > 0 ? catalog.resolve(nameOrId) : undefined;
  if (exact) return exact;
  const selection = selectItem(catalog.items, nameOrId);
  if (!selection) throw notFound();
  if ('candidates' in selection) {
    throw ambiguousItem(selection.candidates.map((item) => item.marketHashName));
  }
  return selection.item;
}

export function noPricing(): ApiError {
  return new ApiError(404, 'NOT_FOUND', 'No pricing data for this item');
}
