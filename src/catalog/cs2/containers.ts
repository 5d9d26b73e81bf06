/**
 * CS2 cases, capsules, souvenir packages and boxes (category `container`), their keys and the
 * tradable tools (category `tool`). The library prefixes these names with `Container | `,
 * `Key | ` and `Tool | `; Steam does not, so the prefix is dropped.
 */
import type { CS2Item } from '@ianlucas/cs2-lib';
import type { ItemDraft } from '../finalize.ts';
import { slugify } from '../slug.ts';
import { containerFields, toolFields } from './price-model.ts';
import type { ContainerKind } from './price-model.ts';
import { rarityKey } from './rarities.ts';
import type { Cs2Source } from './source.ts';

export interface ContainerEntry {
  name: string;
  kind: ContainerKind;
  image?: string;
}

/** Tool definition indexes that Steam lets trade: Name Tag and StatTrak™ Swap Tool. */
const TRADABLE_TOOL_DEFS = new Set([1200, 1324]);

const KIND_BY_TYPE: Readonly<Record<number, ContainerKind>> = {
  0: 'case',
  1: 'capsule',
  2: 'capsule',
  3: 'souvenir',
};

export function stripPrefix(name: string, prefix: string): string {
  return name.startsWith(prefix) ? name.slice(prefix.length) : name;
}

export function containerName(source: Cs2Source, item: CS2Item): string {
  return stripPrefix(source.name(item), 'Container | ');
}

const keyCache = new WeakMap<CS2Item, string>();

/** Registry key of a container: the slug of its Steam name. */
export function containerKey(source: Cs2Source, item: CS2Item): string {
  let key = keyCache.get(item);
  if (key === undefined) {
    key = slugify(containerName(source, item));
    keyCache.set(item, key);
  }
  return key;
}

export function containerKind(item: CS2Item): ContainerKind {
  return item.containerType === undefined ? 'other' : (KIND_BY_TYPE[item.containerType] ?? 'other');
}

export function containerRegistry(source: Cs2Source): Record<string, ContainerEntry> {
  const registry: Record<string, ContainerEntry> = {};
  for (const item of uniqueCases(source)) {
    const image = source.imageUrl(item.image);
    registry[containerKey(source, item)] = {
      name: containerName(source, item),
      kind: containerKind(item),
      ...(image ? { image } : {}),
    };
  }
  return registry;
}

/** The library lists a few sticker collections twice (two defs, one Steam name). */
function uniqueCases(source: Cs2Source): CS2Item[] {
  const seen = new Set<string>();
  return source.items.filter((item) => {
    if (item.type !== 'case') return false;
    const name = containerName(source, item);
    if (seen.has(name)) return false;
    seen.add(name);
    return true;
  });
}

export function containerDrafts(source: Cs2Source): ItemDraft[] {
  const cases = uniqueCases(source);
  const counts = new Map<ContainerKind, number>();
  for (const item of cases)
    counts.set(containerKind(item), (counts.get(containerKind(item)) ?? 0) + 1);
  const seen = new Map<ContainerKind, number>();
  return cases.map((item) => {
    const kind = containerKind(item);
    const position = seen.get(kind) ?? 0;
    seen.set(kind, position + 1);
    const total = counts.get(kind) ?? 1;
    const age = total > 1 ? 1 - position / (total - 1) : 0;
    const marketHashName = containerName(source, item);
    const rarity = rarityKey('misc', item.rarity);
    const image = source.imageUrl(item.image);
    return {
      marketHashName,
      category: 'container',
      ...(rarity ? { rarity } : {}),
      ...(item.collection ? { collections: [item.collection] } : {}),
      ...(image ? { image } : {}),
      ...containerFields(marketHashName, kind, age),
    };
  });
}

export function keyAndToolDrafts(source: Cs2Source): ItemDraft[] {
  const drafts: ItemDraft[] = [];
  for (const item of source.items) {
    const isKey = item.type === 'key';
    const isTool =
      item.type === 'tool' && item.def !== undefined && TRADABLE_TOOL_DEFS.has(item.def);
    if (!isKey && !isTool) continue;
    const marketHashName = stripPrefix(source.name(item), isKey ? 'Key | ' : 'Tool | ');
    const rarity = rarityKey('misc', item.rarity);
    const image = source.imageUrl(item.image);
    drafts.push({
      marketHashName,
      category: 'tool',
      ...(rarity ? { rarity } : {}),
      ...(image ? { image } : {}),
      ...toolFields(marketHashName),
    });
  }
  return drafts;
}
