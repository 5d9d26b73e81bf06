/**
 * Builds the catalog data from the item-data package (CS2) and the curated lists (Rust). Only
 * the short-lived build thread (./build-worker.mjs) and tests import this module, so no
 * long-lived thread keeps the package's module graph.
 */
import type { CatalogData } from './catalog-data.ts';
import { buildCs2 } from './cs2/build-cs2.ts';
import { buildRust } from './rust/build-rust.ts';

export function buildCatalogData(): CatalogData {
  const cs2 = buildCs2();
  return { items: { cs2: cs2.items, rust: buildRust() }, cs2Registries: cs2.registries };
}
