/**
 * Item selectors (spec "Errors": 409 on an ambiguous selector): a request may name an item by
 * its exact market hash name, its canonical id or its slug, or by its name in any letter case.
 * Exact name and id are unique. A slug selects every item whose slug is it or whose name
 * slugifies to it (names that clash share the plain slug; finalizeItems gives the later ones a
 * suffix), and a case-insensitive name every item so spelled: more than one match is ambiguous
 * and the caller answers 409 naming the candidates. The index is built once per item list and
 * rebuilt when the list grows (learned items).
 */
import { slugify } from '../catalog/slug.ts';

export interface Selectable {
  id: string;
  marketHashName: string;
  slug: string;
}

export type Selection<T> = { item: T } | { candidates: T[] } | null;

interface SelectorIndex<T> {
  size: number;
  byName: Map<string, T>;
  byId: Map<string, T>;
  bySlug: Map<string, T[]>;
  byFoldedName: Map<string, T[]>;
}

const indexes = new WeakMap<readonly Selectable[], SelectorIndex<Selectable>>();

function push<T>(map: Map<string, T[]>, key: string, item: T): void {
  const list = map.get(key);
  if (!list) map.set(key, [item]);
  else if (!list.includes(item)) list.push(item);
}

function buildIndex<T extends Selectable>(items: readonly T[]): SelectorIndex<T> {
  const index: SelectorIndex<T> = {
    size: items.length,
    byName: new Map(),
    byId: new Map(),
    bySlug: new Map(),
    byFoldedName: new Map(),
  };
  for (const item of items) {
    index.byName.set(item.marketHashName, item);
    index.byId.set(item.id, item);
    push(index.bySlug, item.slug, item);
    push(index.bySlug, slugify(item.marketHashName), item);
    push(index.byFoldedName, item.marketHashName.toLowerCase(), item);
  }
  return index;
}

function indexOf<T extends Selectable>(items: readonly T[]): SelectorIndex<T> {
  const cached = indexes.get(items) as SelectorIndex<T> | undefined;
  if (cached && cached.size === items.length) return cached;
  const fresh = buildIndex(items);
  indexes.set(items, fresh as unknown as SelectorIndex<Selectable>);
  return fresh;
}

function oneOf<T>(matches: readonly T[] | undefined): Selection<T> {
  if (!matches || matches.length === 0) return null;
  return matches.length === 1 ? { item: matches[0] as T } : { candidates: [...matches] };
}

export function selectItem<T extends Selectable>(
  items: readonly T[],
  selector: string,
): Selection<T> {
  if (selector.length === 0) return null;
  const index = indexOf(items);
  const exact = index.byName.get(selector) ?? index.byId.get(selector);
  if (exact) return { item: exact };
  return oneOf(index.bySlug.get(selector)) ?? oneOf(index.byFoldedName.get(selector.toLowerCase()));
}
