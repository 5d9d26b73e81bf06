/**
 * Doppler / Gamma Doppler variant lookup on a built catalog: from a base item (the Steam name
 * without phase) and a paint index or a phase label to the variant's own priceable entry.
 */
import type { CatalogItem } from '../domain/item.ts';
import type { Catalog } from './catalog.ts';
import { normalizePhaseLabel } from './cs2/doppler.ts';

/** The base item may be given by canonical id or exact name. */
function baseItem(catalog: Catalog, baseItemId: string): CatalogItem | undefined {
  const item = catalog.resolve(baseItemId);
  if (item?.variantOf) return catalog.byId(item.variantOf);
  return item;
}

export function resolveVariant(
  catalog: Catalog,
  baseItemId: string,
  paintIndex: number,
): CatalogItem | undefined {
  const variant = baseItem(catalog, baseItemId)?.variants?.find(
    (entry) => entry.paintIndex === paintIndex,
  );
  return variant ? catalog.byName(variant.marketHashName) : undefined;
}

/** Accepts `Phase 2`, `phase2`, `P2`, `2`, `Ruby`, `black pearl`, … */
export function resolvePhase(
  catalog: Catalog,
  baseItemId: string,
  phase: string,
): CatalogItem | undefined {
  const label = normalizePhaseLabel(phase);
  if (!label) return undefined;
  const variant = baseItem(catalog, baseItemId)?.variants?.find((entry) => entry.name === label);
  return variant ? catalog.byName(variant.marketHashName) : undefined;
}
