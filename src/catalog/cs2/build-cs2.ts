/**
 * Builds every priceable CS2 item from `@ianlucas/cs2-lib`: weapon skins, knives and gloves
 * (with Doppler variants), containers, stickers, charms, patches, graffiti, agents, music kits,
 * pins, keys and tools; plus the rarity, collection and container registries.
 */
import type { CatalogItem, Rarity } from '../../domain/item.ts';
import { finalizeItems } from '../finalize.ts';
import { containerDrafts, containerRegistry, keyAndToolDrafts } from './containers.ts';
import type { ContainerEntry } from './containers.ts';
import { cosmeticDrafts } from './cosmetics.ts';
import { paintableDrafts } from './paintables.ts';
import { CS2_RARITIES } from './rarities.ts';
import { cs2Source } from './source.ts';
import type { Cs2Source } from './source.ts';

export interface CollectionEntry {
  name: string;
}

export interface Cs2Registries {
  rarities: readonly Rarity[];
  collections: Record<string, CollectionEntry>;
  containers: Record<string, ContainerEntry>;
}

export interface Cs2Build {
  items: CatalogItem[];
  registries: Cs2Registries;
}

export function buildCs2(source: Cs2Source = cs2Source()): Cs2Build {
  const drafts = [
    ...paintableDrafts(source),
    ...containerDrafts(source),
    ...cosmeticDrafts(source),
    ...keyAndToolDrafts(source),
  ];
  return {
    items: finalizeItems('cs2', drafts),
    registries: {
      rarities: CS2_RARITIES,
      collections: collectionRegistry(source),
      containers: containerRegistry(source),
    },
  };
}

function collectionRegistry(source: Cs2Source): Record<string, CollectionEntry> {
  const registry: Record<string, CollectionEntry> = {};
  for (const item of source.items) {
    if (!item.collection || registry[item.collection]) continue;
    const name = source.collectionName(item.collection);
    if (name) registry[item.collection] = { name };
  }
  return registry;
}
