/**
 * The full catalogs for tests that need real item names. In a `scripts/run-tests.mjs` run they
 * come from the run's catalog cache (PRICING_CATALOG_CACHE_DIR), so the run builds them once
 * instead of once per test process (about 5 s of CPU each); elsewhere they are built. A cut of
 * them is what a server started with `--catalog-items` serves.
 */
import { cutCatalogData, type CatalogCut } from './catalog-cut.ts';
import { catalogsFrom } from './catalog-data.ts';
import { loadCatalogs, loadCs2Registries, useCatalogCache } from './load-catalogs.ts';

function useTestRunCache(): void {
  const dir = process.env.PRICING_CATALOG_CACHE_DIR;
  if (dir) useCatalogCache({ dir, warn: (message) => console.warn(message) });
}

export function fullCatalogs(): ReturnType<typeof loadCatalogs> {
  useTestRunCache();
  return loadCatalogs();
}

export function fullCs2Registries(): ReturnType<typeof loadCs2Registries> {
  useTestRunCache();
  return loadCs2Registries();
}

/** The full catalogs cut as `--catalog-items` cuts a server's (./catalog-cut.ts). */
export function cutTestCatalogs(cut: CatalogCut): ReturnType<typeof loadCatalogs> {
  const full = fullCatalogs();
  const items = { cs2: [...full.cs2.items], rust: [...full.rust.items] };
  return catalogsFrom(cutCatalogData({ items, cs2Registries: fullCs2Registries() }, cut));
}
