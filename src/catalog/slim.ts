/**
 * The catalog data an ingest thread needs, cut from built catalogs: only the item fields that
 * name resolution (exact name, id, Doppler phase splicing), the simulator (popularity, prices,
 * float bands, phases, slugs in its feeds), the attribute buckets (weapon, finish) and the item
 * priorities read. Display fields (images, collections, containers, rarity, wear lists) stay
 * on the serving thread. Built items are sent as is, so learned items never pass through here.
 */
import type { Game } from '../domain/games.ts';
import type { CatalogItem, Variant } from '../domain/item.ts';
import type { Catalog } from './catalog.ts';
import type { CatalogData } from './catalog-data.ts';
import type { Cs2Registries } from './cs2/build-cs2.ts';

const ITEM_FIELDS = [
  'id',
  'game',
  'marketHashName',
  'slug',
  'category',
  'weapon',
  'finish',
  'wear',
  'stattrak',
  'floatRange',
  'paintIndex',
  'variantOf',
  'phase',
  'popularity',
  'referencePriceCents',
] as const satisfies readonly (keyof CatalogItem)[];

function slimVariant({ marketHashName, family, name, phase, paintIndex }: Variant): Variant {
  return { marketHashName, family, name, ...(phase === undefined ? {} : { phase }), paintIndex };
}

export function slimItem(item: CatalogItem): CatalogItem {
  const out: Record<string, unknown> = {};
  for (const field of ITEM_FIELDS) if (item[field] !== undefined) out[field] = item[field];
  if (item.variants) out['variants'] = item.variants.map(slimVariant);
  return out as unknown as CatalogItem;
}

export function slimCatalogData(
  catalogs: Readonly<Record<Game, Pick<Catalog, 'items'>>>,
  cs2Registries: Cs2Registries,
): CatalogData {
  return {
    items: { cs2: catalogs.cs2.items.map(slimItem), rust: catalogs.rust.items.map(slimItem) },
    cs2Registries,
  };
}
