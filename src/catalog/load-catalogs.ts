/**
 * Builds the CS2 and Rust catalogs once per process and hands out the cached result; later
 * calls are free. CS2 comes from `@ianlucas/cs2-lib`, Rust from the curated lists in ./rust;
 * both are built on a short-lived thread (./build-in-worker.ts) so that this process never
 * imports the item-data package. With a cache directory (`useCatalogCache`), a boot whose
 * catalog sources did not change reads the built data from disk instead (./catalog-cache.ts).
 * With a cut (`useCatalogCut`), the loaded catalogs hold only its items (./catalog-cut.ts).
 */
import type { Game } from '../domain/games.ts';
import { startCatalogBuild, type PendingCatalogBuild } from './build-in-worker.ts';
import { cachedCatalogBuild, catalogCacheKey } from './catalog-cache.ts';
import { cutCatalogData, type CatalogCut } from './catalog-cut.ts';
import { catalogsFrom, type CatalogData } from './catalog-data.ts';
import type { SluggedCatalog } from './create-catalog.ts';
import type { Cs2Registries } from './cs2/build-cs2.ts';

interface Loaded {
  catalogs: Record<Game, SluggedCatalog>;
  cs2Registries: Cs2Registries;
}

interface CacheSettings {
  dir: string;
  warn(message: string): void;
}

let loaded: Loaded | undefined;
let pending: PendingCatalogBuild | undefined;
let cacheSettings: CacheSettings | undefined;
let cut: CatalogCut = { items: 0, keepNames: [] };

/** Later loads of this process read and write the built catalogs in `settings.dir`. */
export function useCatalogCache(settings: CacheSettings): void {
  cacheSettings = settings;
}

/** Later loads of this process keep only the cut's items (`items` 0: every item). */
export function useCatalogCut(settings: CatalogCut): void {
  if (loaded && settings.items !== cut.items) {
    throw new Error('the catalogs of this thread are already loaded with another cut');
  }
  cut = settings;
}

function startLoad(): PendingCatalogBuild {
  if (!cacheSettings) return startCatalogBuild();
  return cachedCatalogBuild({ ...cacheSettings, key: catalogCacheKey() }, startCatalogBuild);
}

/**
 * Starts the build now so that it runs beside the rest of a boot (about a second on its own
 * core); the first `loadCatalogs` then only waits for what is left of it.
 */
export function prefetchCatalogs(): void {
  if (!loaded) pending ??= startLoad();
}

function load(): Loaded {
  if (loaded) return loaded;
  const build = pending ?? startLoad();
  pending = undefined;
  const data = cutCatalogData(build.wait(), cut);
  loaded = { catalogs: catalogsFrom(data), cs2Registries: data.cs2Registries };
  return loaded;
}

/**
 * For a thread that was handed the catalog data (the ingest worker): later `loadCatalogs` and
 * `loadCs2Registries` calls answer from it instead of building.
 */
export function adoptCatalogData(data: CatalogData): void {
  if (loaded) throw new Error('the catalogs of this thread are already loaded');
  loaded = { catalogs: catalogsFrom(data), cs2Registries: data.cs2Registries };
}

export function loadCatalogs(): Record<Game, SluggedCatalog> {
  return load().catalogs;
}

/** Rarity, collection and container registries of the CS2 item schema. */
export function loadCs2Registries(): Cs2Registries {
  return load().cs2Registries;
}
