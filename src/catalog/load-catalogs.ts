/**
 * Builds the CS2 and Rust catalogs once per process and hands out the cached result; later
 * calls are free. CS2 comes from `@ianlucas/cs2-lib`, Rust from the curated lists in ./rust.
 */
import type { Game } from '../domain/games.ts';
import { createCatalog } from './create-catalog.ts';
import type { SluggedCatalog } from './create-catalog.ts';
import { buildCs2 } from './cs2/build-cs2.ts';
import type { Cs2Registries } from './cs2/build-cs2.ts';
import { buildRust } from './rust/build-rust.ts';

interface Loaded {
  catalogs: Record<Game, SluggedCatalog>;
  cs2Registries: Cs2Registries;
}

let loaded: Loaded | undefined;

function load(): Loaded {
  if (loaded) return loaded;
  const cs2 = buildCs2();
  loaded = {
    catalogs: {
      cs2: createCatalog('cs2', cs2.items, cs2.registries.rarities),
      rust: createCatalog('rust', buildRust(), []),
    },
    cs2Registries: cs2.registries,
  };
  return loaded;
}

export function loadCatalogs(): Record<Game, SluggedCatalog> {
  return load().catalogs;
}

/** Rarity, collection and container registries of the CS2 item schema. */
export function loadCs2Registries(): Cs2Registries {
  return load().cs2Registries;
}
