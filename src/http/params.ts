/** Parameter rules shared by the routes: the `markets` CSV and item lookup. */
import type { Catalog } from '../catalog/catalog.ts';
import { ApiError, badRequest, notFound } from '../domain/errors.ts';
import type { Game } from '../domain/games.ts';
import { sentence } from '../domain/parameter-sentences.ts';
import type { CatalogItem } from '../domain/item.ts';
import { MARKETS_BY_GAME, type MarketId } from '../domain/markets.ts';
import { ALL_MARKETS, type MarketSelection } from '../pricing/top-of-book.ts';

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

/** Exact market hash name first, then canonical id; 404 `Not found` otherwise. */
export function findItem(catalog: Catalog, nameOrId: string): CatalogItem {
  const item = nameOrId.length > 0 ? catalog.resolve(nameOrId) : undefined;
  if (!item) throw notFound();
  return item;
}

export function noPricing(): ApiError {
  return new ApiError(404, 'NOT_FOUND', 'No pricing data for this item');
}
