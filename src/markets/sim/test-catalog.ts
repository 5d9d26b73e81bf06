/** Small hand-made catalogs for the simulator's tests (and a synthetic large one for timing). */
import type { CatalogItem } from '../../domain/item.ts';
import type { SimCatalogs } from './world.ts';

const DOPPLER_PHASES: [string, number][] = [
  ['Phase 1', 418],
  ['Phase 2', 419],
  ['Phase 3', 420],
  ['Phase 4', 421],
  ['Ruby', 415],
  ['Sapphire', 416],
  ['Black Pearl', 417],
];

const KARAMBIT = '★ Karambit | Doppler (Factory New)';

function dopplerVariant([name, paintIndex]: [string, number]): CatalogItem {
  return {
    id: `karambit-doppler-fn-${paintIndex}`,
    game: 'cs2',
    marketHashName: `★ Karambit | Doppler ${name} (Factory New)`,
    slug: `karambit-doppler-${name.toLowerCase().replace(/ /g, '-')}-factory-new`,
    category: 'knife',
    wear: 'Factory New',
    floatRange: { min: 0, max: 0.08 },
    variantOf: 'karambit-doppler-fn',
    phase: name,
    paintIndex,
    popularity: 0.3,
    referencePriceCents: name === 'Ruby' ? 900_000 : 120_000,
  };
}

export const CS2_TEST_ITEMS: CatalogItem[] = [
  {
    id: 'ak47-redline-ft',
    game: 'cs2',
    marketHashName: 'AK-47 | Redline (Field-Tested)',
    slug: 'ak-47-redline-field-tested',
    category: 'skin',
    wear: 'Field-Tested',
    floatRange: { min: 0.1, max: 0.7 },
    paintIndex: 282,
    popularity: 0.95,
    referencePriceCents: 1_100,
  },
  {
    id: 'st-m4a1s-printstream-mw',
    game: 'cs2',
    marketHashName: 'StatTrak™ M4A1-S | Printstream (Minimal Wear)',
    slug: 'stattrak-m4a1-s-printstream-minimal-wear',
    category: 'skin',
    wear: 'Minimal Wear',
    floatRange: { min: 0, max: 1 },
    stattrak: true,
    popularity: 0.6,
    referencePriceCents: 28_000,
  },
  {
    id: 'karambit-doppler-fn',
    game: 'cs2',
    marketHashName: KARAMBIT,
    slug: 'karambit-doppler-factory-new',
    category: 'knife',
    wear: 'Factory New',
    floatRange: { min: 0, max: 0.08 },
    variants: DOPPLER_PHASES.map(([name, paintIndex]) => ({
      marketHashName: `★ Karambit | Doppler ${name} (Factory New)`,
      family: 'doppler',
      name,
      paintIndex,
    })),
    popularity: 0.5,
    referencePriceCents: 110_000,
  },
  ...DOPPLER_PHASES.slice(0, 2).map(dopplerVariant),
  dopplerVariant(DOPPLER_PHASES[4]!),
  {
    id: 'sticker-titan-kato-2014',
    game: 'cs2',
    marketHashName: 'Sticker | Titan | Katowice 2014',
    slug: 'sticker-titan-katowice-2014',
    category: 'sticker',
    popularity: 0.2,
    referencePriceCents: 4_000_000,
  },
  {
    id: 'case-recoil',
    game: 'cs2',
    marketHashName: 'Recoil Case',
    slug: 'recoil-case',
    category: 'container',
    popularity: 1,
    referencePriceCents: 35,
  },
  {
    id: 'glock-sand-dune-bs',
    game: 'cs2',
    marketHashName: 'Glock-18 | Sand Dune (Battle-Scarred)',
    slug: 'glock-18-sand-dune-battle-scarred',
    category: 'skin',
    wear: 'Battle-Scarred',
    popularity: 0.02,
    referencePriceCents: 4,
  },
];

export const RUST_TEST_ITEMS: CatalogItem[] = [
  {
    id: 'rust-black-hoodie',
    game: 'rust',
    marketHashName: 'Black Hoodie',
    slug: 'black-hoodie',
    category: 'other',
    popularity: 0.7,
    referencePriceCents: 250,
  },
  {
    id: 'rust-tempered-ak',
    game: 'rust',
    marketHashName: 'Tempered AK47',
    slug: 'tempered-ak47',
    category: 'other',
    popularity: 0.9,
    referencePriceCents: 9_000,
  },
  {
    id: 'rust-big-grin',
    game: 'rust',
    marketHashName: 'Big Grin',
    slug: 'big-grin',
    category: 'other',
    popularity: 0.4,
    referencePriceCents: 40_000,
  },
];

export const TEST_CATALOGS: SimCatalogs = {
  cs2: { items: CS2_TEST_ITEMS },
  rust: { items: RUST_TEST_ITEMS },
};

/** A synthetic catalog of `count` CS2 items (no hints: popularity and price come from hashes). */
export function syntheticCatalog(count: number): CatalogItem[] {
  const wears = ['Factory New', 'Minimal Wear', 'Field-Tested', 'Well-Worn', 'Battle-Scarred'];
  return Array.from({ length: count }, (_, index): CatalogItem => {
    const wear = wears[index % wears.length]!;
    return {
      id: `synthetic-${index}`,
      game: 'cs2',
      marketHashName: `Weapon ${Math.floor(index / 5)} | Finish ${index % 97} (${wear})`,
      slug: `synthetic-${index}`,
      category: index % 10 === 9 ? 'sticker' : 'skin',
      wear,
      floatRange: { min: 0, max: 1 },
    };
  });
}
