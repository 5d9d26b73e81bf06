import type { Game } from './games.ts';

export type ItemCategory =
  | 'skin'
  | 'knife'
  | 'gloves'
  | 'sticker'
  | 'container'
  | 'agent'
  | 'patch'
  | 'graffiti'
  | 'music_kit'
  | 'charm'
  | 'collectible'
  | 'tool'
  | 'other';

export type DopplerFamily = 'doppler' | 'gamma_doppler';

export interface Variant {
  /** Priceable name of the variant, e.g. `★ Karambit | Doppler Phase 2 (Factory New)`. */
  marketHashName: string;
  family: DopplerFamily;
  /** "Phase 2", "Ruby", "Sapphire", "Black Pearl", "Emerald". */
  name: string;
  phase?: number;
  paintIndex: number;
  image?: string;
}

/**
 * One priceable catalog entry. Optional fields are omitted when they do not apply
 * (schema records are sparse). `id` is the canonical id: stable across rebuilds, never reused.
 */
export interface CatalogItem {
  id: string;
  game: Game;
  marketHashName: string;
  slug: string;
  category: ItemCategory;
  baseName?: string;
  weapon?: string;
  finish?: string;
  rarity?: string;
  wear?: string;
  wears?: string[];
  stattrak?: boolean;
  souvenir?: boolean;
  hasStattrak?: boolean;
  hasSouvenir?: boolean;
  floatRange?: { min: number; max: number };
  paintIndex?: number;
  variants?: Variant[];
  /** Set on a Doppler / Gamma Doppler variant entry: the base item's canonical id and family. */
  variantOf?: string;
  phase?: string;
  collections?: string[];
  containers?: string[];
  image?: string;
  /** Rough popularity 0..1 used by the simulator (price level and sales rate). */
  popularity?: number;
  /** Reference price in USD cents used by the simulator; never served as a quote. */
  referencePriceCents?: number;
}

export interface Rarity {
  key: string;
  name: string;
  tier: number;
  color: string;
}
