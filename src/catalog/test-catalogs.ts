/**
 * The full catalogs for tests that need real item names. In a `scripts/run-tests.mjs` run they
 * come from the run's catalog cache (PRICING_CATALOG_CACHE_DIR), so the run builds them once
 * instead of once per test process (about 5 s of CPU each); elsewhere they are built.
 */
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
