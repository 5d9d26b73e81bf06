/**
 * Source item name → catalog item. Exact name (or canonical id) first; then the few spellings
 * markets are known to vary (HTML entities, stray whitespace); then Doppler / Gamma Doppler
 * names with the phase spliced in (`★ Karambit | Doppler Phase 2 (Factory New)`), resolved to
 * the catalog's variant entry when it has one, else to the base item.
 */
import type { Catalog } from './catalog.ts';
import type { CatalogItem } from '../domain/item.ts';

const SPLICED_PHASE =
  /^(.*\| (?:Gamma )?Doppler) (Phase [1-4]|Ruby|Sapphire|Black Pearl|Emerald)( \([^()]+\))?$/;

const ENTITIES: Readonly<Record<string, string>> = {
  '&#39;': "'",
  '&#039;': "'",
  '&apos;': "'",
  '&quot;': '"',
  '&amp;': '&',
};

export function cleanItemName(name: string): string {
  return name
    .replace(/&#0?39;|&apos;|&quot;|&amp;/g, (entity) => ENTITIES[entity] ?? entity)
    .replace(/\s+/g, ' ')
    .trim();
}

export function resolveItem(catalog: Catalog, name: string): CatalogItem | undefined {
  const exact = catalog.resolve(name);
  if (exact) return exact;
  const cleaned = cleanItemName(name);
  const found = cleaned === name ? undefined : catalog.resolve(cleaned);
  return found ?? resolveSplicedPhase(catalog, cleaned);
}

function resolveSplicedPhase(catalog: Catalog, name: string): CatalogItem | undefined {
  const match = SPLICED_PHASE.exec(name);
  if (!match) return undefined;
  const [, finish = '', phase = '', exterior = ''] = match;
  const base = catalog.resolve(finish + exterior);
  if (!base) return undefined;
  const variant = base.variants?.find((entry) => entry.name === phase);
  return (variant && catalog.resolve(variant.marketHashName)) ?? base;
}
