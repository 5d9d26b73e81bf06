/**
 * Public surface of the catalog module.
 */
export type { Catalog } from './catalog.ts';
export { canonicalId, isCanonicalIdShape } from './canonical-id.ts';
export { createCatalog } from './create-catalog.ts';
export type { SluggedCatalog } from './create-catalog.ts';
export type { Cs2Registries } from './cs2/build-cs2.ts';
export { DOPPLER_PHASE_BY_PAINT_INDEX, normalizePhaseLabel } from './cs2/doppler.ts';
export { CS2_RARITIES } from './cs2/rarities.ts';
export { CatalogBuildError, finalizeItems } from './finalize.ts';
export type { ItemDraft } from './finalize.ts';
export {
  adoptCatalogData,
  loadCatalogs,
  loadCs2Registries,
  prefetchCatalogs,
  useCatalogCache,
  useCatalogCut,
} from './load-catalogs.ts';
export { catalogsFrom } from './catalog-data.ts';
export type { CatalogData } from './catalog-data.ts';
export { slimCatalogData, slimItem } from './slim.ts';
export { slugify } from './slug.ts';
export { resolvePhase, resolveVariant } from './variants.ts';
