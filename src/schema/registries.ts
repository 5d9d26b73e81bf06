/**
 * The schema registries (spec "Item schema"): `rarities` (array of {key, name, tier, color}),
 * `collections` and `containers` (objects keyed by registry key). Rust has none of the three,
 * so its registries are empty. `referencedBy` keeps only the entries some records reference,
 * for single-item reads and the change feed's sidecar.
 */
import type { Cs2Registries } from '../catalog/cs2/build-cs2.ts';
import type { Rarity } from '../domain/item.ts';
import type { SchemaRecord } from './records.ts';

export interface SchemaRegistries {
  rarities: Rarity[];
  collections: Record<string, { name: string }>;
  containers: Record<string, { name: string; kind: string; image?: string }>;
}

export const EMPTY_REGISTRIES: SchemaRegistries = { rarities: [], collections: {}, containers: {} };

export function cs2SchemaRegistries(source: Cs2Registries): SchemaRegistries {
  return {
    rarities: source.rarities.map((rarity) => ({ ...rarity })),
    collections: { ...source.collections },
    containers: { ...source.containers },
  };
}

export function referencedBy(
  registries: SchemaRegistries,
  records: readonly SchemaRecord[],
): SchemaRegistries {
  const rarityKeys = new Set<string>();
  const collections: SchemaRegistries['collections'] = {};
  const containers: SchemaRegistries['containers'] = {};
  for (const record of records) {
    if (record.rarity) rarityKeys.add(record.rarity);
    for (const key of record.collections ?? []) {
      const entry = registries.collections[key];
      if (entry) collections[key] = entry;
    }
    for (const key of record.containers ?? []) {
      const entry = registries.containers[key];
      if (entry) containers[key] = entry;
    }
  }
  const rarities = registries.rarities.filter((rarity) => rarityKeys.has(rarity.key));
  return { rarities, collections, containers };
}
