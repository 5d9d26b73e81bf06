/**
 * Builds the CS2 and Rust catalogs once per process and hands out the cached result; later
 * calls are free. CS2 comes from `@ianlucas/cs2-lib`, Rust from the curated lists in ./rust;
 * both are built on a short-lived thread (./build-in-worker.ts) so that this process never
 * imports the item-data package.
 */
import type { Game } from '../domain/games.ts';
import { startCatalogBuild, type PendingCatalogBuild } from './build-in-worker.ts';
import { catalogsFrom, type CatalogData } from './catalog-data.ts';
import type { SluggedCatalog } from './create-catalog.ts';
import type { Cs2Registries } from './cs2/build-cs2.ts';

interface Loaded {
  catalogs: Record<Game, SluggedCatalog>;
  cs2Registries: Cs2Registries;
}

let loaded: Loaded | undefined;
let pending: PendingCatalogBuild | undefined;

/**
 * Starts the build now so that it runs beside the rest of a boot (about a second on its own
 * core); the first `loadCatalogs` then only waits for what is left of it.
 */
export function prefetchCatalogs(): void {
  if (!loaded) pending ??= startCatalogBuild();
}

function load(): Loaded {
  if (loaded) return loaded;
  const build = pending ?? startCatalogBuild();
  pending = undefined;
  const data = build.wait();
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
