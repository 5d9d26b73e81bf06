/**
 * A catalog that grows with the market: the package catalog plus items learned from the naming
 * authority (schema records with `learned: true`). Lookups see learned items as soon as they
 * are added; `items` is one array that grows in place, so wrappers that copied the catalog
 * (demand noting) see new items too. Learned items are found by word-prefix search as well.
 */
import type { SluggedCatalog } from '../catalog/create-catalog.ts';
import type { CatalogItem } from '../domain/item.ts';
import type { SchemaRecord } from './records.ts';

export interface GrowingCatalog extends SluggedCatalog {
  /** Adds learned records the catalog does not hold yet; returns how many were new. */
  learn(records: readonly SchemaRecord[]): number;
}

function words(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
}

function matchesAllPrefixes(name: string, query: string): boolean {
  const nameWords = words(name);
  const queryWords = words(query);
  return (
    queryWords.length > 0 &&
    queryWords.every((word) => nameWords.some((candidate) => candidate.startsWith(word)))
  );
}

export function growingCatalog(base: SluggedCatalog): GrowingCatalog {
  const items: CatalogItem[] = [...base.items];
  const learned = new Map<string, CatalogItem>();
  const learnedIds = new Map<string, CatalogItem>();
  const learnedSlugs = new Map<string, CatalogItem>();
  const byName = (name: string) => base.byName(name) ?? learned.get(name);
  const byId = (id: string) => base.byId(id) ?? learnedIds.get(id);
  return {
    game: base.game,
    items,
    rarities: base.rarities,
    byName,
    byId,
    bySlug: (slug) => base.bySlug(slug) ?? learnedSlugs.get(slug),
    resolve: (nameOrId) => byName(nameOrId) ?? byId(nameOrId),
    search: (query) => [
      ...base.search(query),
      ...[...learned.values()].filter((item) => matchesAllPrefixes(item.marketHashName, query)),
    ],
    learn(records) {
      let added = 0;
      for (const record of records) {
        if (byName(record.marketHashName) || byId(record.id)) continue;
        const item: CatalogItem = {
          id: record.id,
          game: base.game,
          marketHashName: record.marketHashName,
          slug: record.slug,
          category: 'other',
        };
        learned.set(item.marketHashName, item);
        learnedIds.set(item.id, item);
        learnedSlugs.set(item.slug, item);
        items.push(item);
        added += 1;
      }
      return added;
    },
  };
}
