/**
 * Builds a read-only `Catalog` over finished items of one game: exact-name, id and slug maps
 * plus the word-prefix search index, built on the first search (about 9 MB and a quarter of a
 * second for the CS2 catalog, which a thread that never searches, like ingest, never pays).
 * Data-agnostic; the CS2 and Rust builders feed it.
 */
import type { Game } from '../domain/games.ts';
import type { CatalogItem, Rarity } from '../domain/item.ts';
import type { Catalog } from './catalog.ts';
import { CatalogBuildError } from './finalize.ts';
import { SearchIndex } from './search-index.ts';

/** The port's `Catalog` plus slug lookup (the architecture resolves names, ids and slugs). */
export interface SluggedCatalog extends Catalog {
  bySlug(slug: string): CatalogItem | undefined;
}

export function createCatalog(
  game: Game,
  items: readonly CatalogItem[],
  rarities: readonly Rarity[],
): SluggedCatalog {
  const names = uniqueIndex(items, (item) => item.marketHashName, 'name');
  const ids = uniqueIndex(items, (item) => item.id, 'id');
  const slugs = uniqueIndex(items, (item) => item.slug, 'slug');
  for (const item of items) {
    if (item.game !== game) throw new CatalogBuildError(`${item.id} is not a ${game} item`);
  }
  let index: SearchIndex | undefined;
  const frozenItems = Object.freeze([...items]);
  const frozenRarities = Object.freeze([...rarities]);
  return {
    game,
    items: frozenItems,
    rarities: frozenRarities,
    byName: (name) => names.get(name),
    byId: (id) => ids.get(id),
    bySlug: (slug) => slugs.get(slug),
    resolve: (nameOrId) => names.get(nameOrId) ?? ids.get(nameOrId),
    search: (query) => {
      index ??= new SearchIndex(frozenItems.map((item) => item.marketHashName));
      return index.search(query).map((position) => frozenItems[position] as CatalogItem);
    },
  };
}

function uniqueIndex(
  items: readonly CatalogItem[],
  key: (item: CatalogItem) => string,
  what: string,
): Map<string, CatalogItem> {
  const map = new Map<string, CatalogItem>();
  for (const item of items) {
    const value = key(item);
    if (map.has(value)) throw new CatalogBuildError(`duplicate ${what}: ${value}`);
    map.set(value, item);
  }
  return map;
}
