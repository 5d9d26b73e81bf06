/**
 * A smaller catalog for light starts (`--catalog-items N`: tests, demos, a laptop): N items of
 * each game, taken from every category in turn, most popular first by the catalog's popularity
 * model (so stickers, charms and agents are there beside the knives that top the model), plus the
 * items a caller must keep (the docs' examples) and the Doppler base and phase entries of every
 * kept item, so a phase always has its base. Items keep their catalog order.
 */
import { GAMES } from '../domain/games.ts';
import type { CatalogItem } from '../domain/item.ts';
import type { CatalogData } from './catalog-data.ts';

export interface CatalogCut {
  /** Items per game before the kept names and Doppler relatives are added; 0 keeps all. */
  items: number;
  keepNames: readonly string[];
}

const byPopularity = (a: CatalogItem, b: CatalogItem) =>
  (b.popularity ?? 0) - (a.popularity ?? 0) || (a.id < b.id ? -1 : 1);

function categoriesByPopularity(items: readonly CatalogItem[]): CatalogItem[][] {
  const lists = new Map<string, CatalogItem[]>();
  for (const item of items) {
    const list = lists.get(item.category) ?? [];
    list.push(item);
    lists.set(item.category, list);
  }
  return [...lists.keys()].sort().map((category) => lists.get(category)!.sort(byPopularity));
}

function mostPopularIds(items: readonly CatalogItem[], count: number): Set<string> {
  const kept = new Set<string>();
  const lists = categoriesByPopularity(items);
  for (let rank = 0; kept.size < count; rank += 1) {
    for (const list of lists) if (rank < list.length && kept.size < count) kept.add(list[rank]!.id);
  }
  return kept;
}

/** A Doppler phase's family is its base; any other item is a family of its own. */
const familyOf = (item: CatalogItem) => item.variantOf ?? item.id;

function withDopplerRelatives(items: readonly CatalogItem[], kept: Set<string>): Set<string> {
  const families = new Set(items.filter((item) => kept.has(item.id)).map(familyOf));
  return new Set(items.filter((item) => families.has(familyOf(item))).map((item) => item.id));
}

export function cutItems(items: readonly CatalogItem[], cut: CatalogCut): CatalogItem[] {
  if (cut.items <= 0 || items.length <= cut.items) return [...items];
  const kept = mostPopularIds(items, cut.items);
  const named = new Set(cut.keepNames);
  for (const item of items) if (named.has(item.marketHashName)) kept.add(item.id);
  const closed = withDopplerRelatives(items, kept);
  return items.filter((item) => closed.has(item.id));
}

export function cutCatalogData(data: CatalogData, cut: CatalogCut): CatalogData {
  if (cut.items <= 0) return data;
  const items = { ...data.items };
  for (const game of GAMES) items[game] = cutItems(data.items[game], cut);
  return { ...data, items };
}
