/**
 * The real CS2 item data from `@ianlucas/cs2-lib`: raw items plus English names, and the
 * container facts the naming rules need (which skins can be StatTrak™ or Souvenir, and which
 * containers hold each item).
 *
 * The package's `./translations` entry loads all 29 languages (~4 s); only English is needed,
 * so its module file is imported directly by URL next to the package entry (top-level await).
 * The library's global `CS2Economy` instance is left untouched.
 */
import { CS2_ITEMS } from '@ianlucas/cs2-lib';
import type { CS2Item, CS2ItemTranslationMap } from '@ianlucas/cs2-lib';

const ENGLISH_URL = new URL('./translations/english.mjs', import.meta.resolve('@ianlucas/cs2-lib'));
const { english } = (await import(ENGLISH_URL.href)) as { english: CS2ItemTranslationMap };

export const CS2_ASSET_BASE_URL = 'https://cdn.cstrike.app';

/** Library `containerType` values. */
const WEAPON_CASE = 0;
const SOUVENIR_PACKAGE = 3;

export interface Cs2Source {
  readonly items: readonly CS2Item[];
  name(item: CS2Item): string;
  byId(id: number): CS2Item | undefined;
  /** Ids dropped by a non-StatTrak-less weapon case (contents or specials). */
  readonly stattrakIds: ReadonlySet<number>;
  /** Ids dropped by a Souvenir package. */
  readonly souvenirIds: ReadonlySet<number>;
  /** Item id → ids of the containers that drop it, in library order. */
  readonly containersOf: ReadonlyMap<number, readonly number[]>;
  collectionName(key: string): string | undefined;
  imageUrl(path: string | undefined): string | undefined;
}

let cached: Cs2Source | undefined;

export function cs2Source(): Cs2Source {
  cached ??= buildSource(CS2_ITEMS, english);
  return cached;
}

function buildSource(items: readonly CS2Item[], names: CS2ItemTranslationMap): Cs2Source {
  const byId = new Map(items.map((item) => [item.id, item]));
  const stattrakIds = new Set<number>();
  const souvenirIds = new Set<number>();
  const containersOf = new Map<number, number[]>();
  const collections = new Map<string, string>();
  for (const item of items) {
    const collectionName = names[item.id]?.collectionName;
    if (item.collection && collectionName) collections.set(item.collection, collectionName);
    if (item.type !== 'case') continue;
    const drops = [...(item.contents ?? []), ...(item.specials ?? [])];
    for (const dropId of drops) {
      const list = containersOf.get(dropId);
      if (list) list.push(item.id);
      else containersOf.set(dropId, [item.id]);
      if (item.containerType === WEAPON_CASE && item.statTrakless !== true) stattrakIds.add(dropId);
    }
    if (item.containerType === SOUVENIR_PACKAGE) {
      for (const dropId of item.contents ?? []) souvenirIds.add(dropId);
    }
  }
  return {
    items,
    name: (item) => names[item.id]?.name ?? '',
    byId: (id) => byId.get(id),
    stattrakIds,
    souvenirIds,
    containersOf,
    collectionName: (key) => collections.get(key),
    imageUrl: (path) => (path ? `${CS2_ASSET_BASE_URL}${path}` : undefined),
  };
}
