/**
 * The catalogs as plain data: every game's finished items plus the CS2 registries. This is what
 * crosses a thread boundary (structured clone), so it holds no functions, maps or references
 * into the item-data package; `catalogsFrom` turns it back into lookup catalogs.
 */
import type { Game } from '../domain/games.ts';
import type { CatalogItem } from '../domain/item.ts';
import { createCatalog, type SluggedCatalog } from './create-catalog.ts';
import type { Cs2Registries } from './cs2/build-cs2.ts';

export interface CatalogData {
  items: Record<Game, CatalogItem[]>;
  cs2Registries: Cs2Registries;
}

/**
 * A structured clone copies a string at every place it occurs; the items repeat many (weapon,
 * finish, wear, rarity, collection and container keys): one copy each saves about 30% of the
 * items' heap.
 */
function internStrings<T>(value: T, seen: Map<string, string>): T {
  if (typeof value === 'string') {
    const held = seen.get(value);
    if (held !== undefined) return held as T;
    seen.set(value, value);
    return value;
  }
  if (typeof value !== 'object' || value === null) return value;
  const record = value as Record<string, unknown>;
  for (const key of Object.keys(record)) record[key] = internStrings(record[key], seen);
  return value;
}

/** Builds lookup catalogs over `data`, whose strings it interns in place. */
export function catalogsFrom(data: CatalogData): Record<Game, SluggedCatalog> {
  internStrings(data.items, new Map());
  return {
    cs2: createCatalog('cs2', data.items.cs2, data.cs2Registries.rarities),
    rust: createCatalog('rust', data.items.rust, []),
  };
}
