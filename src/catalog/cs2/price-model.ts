/**
 * Reference prices (USD cents) and popularity (0..1) for CS2 items, used only by the
 * simulator. Deterministic: a price level per skin comes from rarity, kind and a stable hash of
 * the skin's base name; exterior, StatTrak™, Souvenir and Doppler phase scale it, with a small
 * per-name jitter that never reorders exteriors (FN > MW > FT > WW > BS).
 */
import type { ItemCategory } from '../../domain/item.ts';
import { logBetween, toCents, toPopularity, unitHash } from '../price-hash.ts';
import type { Exterior } from './exteriors.ts';
import { rarityTier } from './rarities.ts';

export type PaintableKind = 'skin' | 'knife' | 'gloves';

export interface PaintablePriceInput {
  kind: PaintableKind;
  marketHashName: string;
  /** Name without prefixes or exterior: the price level is shared by all its entries. */
  baseName: string;
  weapon: string;
  finish?: string;
  rarity?: string;
  exterior?: Exterior;
  stattrak: boolean;
  souvenir: boolean;
  phase?: string;
}

export interface SimulatorFields {
  referencePriceCents: number;
  popularity: number;
}

/** Factory New price ranges in cents for guns, by rarity key. */
const SKIN_RANGE: Readonly<Record<string, readonly [number, number]>> = {
  consumer_grade: [5, 60],
  industrial_grade: [5, 150],
  mil_spec: [10, 400],
  restricted: [40, 2_000],
  classified: [150, 8_000],
  covert: [800, 40_000],
  contraband: [150_000, 400_000],
};

const WEAR_FACTOR: Readonly<Record<PaintableKind, readonly number[]>> = {
  skin: [1, 0.62, 0.42, 0.34, 0.28],
  knife: [1, 0.72, 0.55, 0.47, 0.42],
  gloves: [1, 0.5, 0.28, 0.2, 0.16],
};
const WEAR_POPULARITY = [0.85, 0.95, 1, 0.75, 0.8];
const EXTERIOR_ORDER = ['FN', 'MW', 'FT', 'WW', 'BS'];

const KNIFE_FACTOR: Readonly<Record<string, number>> = {
  Karambit: 1.6,
  'Butterfly Knife': 1.7,
  'M9 Bayonet': 1.3,
  'Skeleton Knife': 1.4,
  'Talon Knife': 1.3,
  Bayonet: 1,
  'Kukri Knife': 0.9,
  'Stiletto Knife': 0.9,
  'Flip Knife': 0.8,
  'Classic Knife': 0.8,
  'Nomad Knife': 0.8,
  'Ursus Knife': 0.6,
  'Huntsman Knife': 0.6,
  'Paracord Knife': 0.6,
  'Survival Knife': 0.55,
  'Bowie Knife': 0.5,
  'Falchion Knife': 0.5,
  'Gut Knife': 0.4,
  'Shadow Daggers': 0.4,
  'Navaja Knife': 0.35,
};

const FINISH_FACTOR: Readonly<Record<string, number>> = {
  'Dragon Lore': 25,
  Gungnir: 20,
  'Wild Lotus': 12,
  Medusa: 10,
  'The Prince': 8,
  'Fire Serpent': 6,
  Hydroponic: 4,
  'Case Hardened': 2,
  Printstream: 2,
  Fade: 1.8,
  'Marble Fade': 1.7,
  'Crimson Web': 1.6,
  'Gamma Doppler': 1.6,
  Doppler: 1.5,
  Lore: 1.5,
  Asiimov: 1.5,
  'Tiger Tooth': 1.4,
  Slaughter: 1.3,
  Vice: 2,
  "Pandora's Box": 3,
  'Crimson Kimono': 2.5,
  'Emerald Web': 2,
  'Hedge Maze': 2,
  'Safari Mesh': 0.5,
  'Boreal Forest': 0.5,
  Scorched: 0.5,
  'Urban Masked': 0.5,
  'Forest DDPAT': 0.5,
};

const PHASE_FACTOR: Readonly<Record<string, number>> = {
  'Phase 1': 0.9,
  'Phase 2': 1.25,
  'Phase 3': 0.85,
  'Phase 4': 1.15,
  Ruby: 5,
  Sapphire: 6,
  'Black Pearl': 3.5,
  Emerald: 6,
};
const GEMS = new Set(['Ruby', 'Sapphire', 'Black Pearl', 'Emerald']);

const SOUVENIR_FACTOR: Readonly<Record<string, number>> = {
  consumer_grade: 1.5,
  industrial_grade: 2,
  mil_spec: 3,
  restricted: 4,
  classified: 6,
  covert: 10,
};

function basePrice(input: PaintablePriceInput): number {
  const unit = unitHash(input.baseName);
  const finish = input.finish ? (FINISH_FACTOR[input.finish] ?? 1) : 1;
  if (input.kind === 'knife') {
    return logBetween(unit, 15_000, 60_000) * (KNIFE_FACTOR[input.weapon] ?? 0.7) * finish;
  }
  if (input.kind === 'gloves') return logBetween(unit, 20_000, 150_000) * finish;
  const [low, high] = SKIN_RANGE[input.rarity ?? ''] ?? [5, 100];
  return logBetween(unit, low, high) * finish;
}

function stattrakFactor(input: PaintablePriceInput): number {
  if (!input.stattrak) return 1;
  const unit = unitHash(`${input.baseName}#stattrak`);
  return input.kind === 'skin' ? 2 + unit : 1.25 + 0.35 * unit;
}

export function paintableFields(input: PaintablePriceInput): SimulatorFields {
  const wearIndex = input.exterior ? EXTERIOR_ORDER.indexOf(input.exterior.code) : -1;
  const wear = wearIndex < 0 ? 1 : (WEAR_FACTOR[input.kind][wearIndex] ?? 1);
  const jitter = 0.95 + 0.1 * unitHash(`${input.marketHashName}#jitter`);
  const souvenir = input.souvenir ? (SOUVENIR_FACTOR[input.rarity ?? ''] ?? 2) : 1;
  const phase = input.phase ? (PHASE_FACTOR[input.phase] ?? 1) : 1;
  const cents = basePrice(input) * wear * jitter * stattrakFactor(input) * souvenir * phase;
  return { referencePriceCents: toCents(cents), popularity: paintablePopularity(input, wearIndex) };
}

function paintablePopularity(input: PaintablePriceInput, wearIndex: number): number {
  const kindBase = input.kind === 'skin' ? 0.3 + 0.06 * rarityTier(input.rarity) : 0.7;
  const wear = wearIndex < 0 ? 1 : (WEAR_POPULARITY[wearIndex] ?? 1);
  const variant = input.phase ? (GEMS.has(input.phase) ? 0.35 : 0.8) : 1;
  const flags = (input.stattrak ? 0.7 : 1) * (input.souvenir ? 0.5 : 1);
  const spread = 0.6 + 0.8 * unitHash(`${input.marketHashName}#popularity`);
  return toPopularity(kindBase * wear * variant * flags * spread);
}

/** Price ranges in cents for everything that is not a weapon, knife or glove finish. */
const MISC_RANGE: Readonly<Record<string, readonly [number, number]>> = {
  base_grade: [3, 100],
  high_grade: [3, 150],
  remarkable: [10, 400],
  exotic: [20, 1_500],
  extraordinary: [100, 5_000],
  contraband: [50_000, 150_000],
  distinguished: [30, 300],
  exceptional: [100, 800],
  superior: [300, 2_000],
  master: [800, 8_000],
};

const CATEGORY_FACTOR: Partial<Record<ItemCategory, number>> = {
  graffiti: 0.3,
  patch: 1.2,
  charm: 1.3,
  music_kit: 4,
  collectible: 10,
};

const CATEGORY_POPULARITY: Partial<Record<ItemCategory, number>> = {
  sticker: 0.15,
  charm: 0.2,
  patch: 0.15,
  graffiti: 0.05,
  agent: 0.35,
  music_kit: 0.15,
  collectible: 0.1,
  container: 0.55,
  tool: 0.4,
};

/** Old tournament stickers trade far above new ones. */
const EVENT_FACTOR: readonly (readonly [string, number])[] = [
  ['Katowice 2014', 40],
  ['DreamHack 2013', 20],
  ['Cologne 2014', 8],
  ['Katowice 2015', 8],
  ['DreamHack 2014', 6],
];

export interface MiscPriceInput {
  category: ItemCategory;
  marketHashName: string;
  rarity?: string;
  stattrak?: boolean;
}

export function miscFields(input: MiscPriceInput): SimulatorFields {
  const unit = unitHash(input.marketHashName);
  const [low, high] = MISC_RANGE[input.rarity ?? ''] ?? [3, 100];
  const event = EVENT_FACTOR.find(([label]) => input.marketHashName.includes(label))?.[1] ?? 1;
  const factor = (CATEGORY_FACTOR[input.category] ?? 1) * event * (input.stattrak ? 1.8 : 1);
  const popularity =
    (CATEGORY_POPULARITY[input.category] ?? 0.1) *
    (0.6 + 0.8 * unitHash(`${input.marketHashName}#popularity`)) *
    (input.stattrak ? 0.7 : 1);
  return {
    referencePriceCents: toCents(logBetween(unit, low, high) * factor),
    popularity: toPopularity(popularity),
  };
}

export type ContainerKind = 'case' | 'souvenir' | 'capsule' | 'other';

const CONTAINER_RANGE: Readonly<Record<ContainerKind, readonly [number, number]>> = {
  case: [30, 300],
  souvenir: [100, 2_000],
  capsule: [10, 200],
  other: [50, 800],
};

/** `age` is 1 for the oldest container of its kind and 0 for the newest. */
export function containerFields(
  marketHashName: string,
  kind: ContainerKind,
  age: number,
): SimulatorFields {
  const [low, high] = CONTAINER_RANGE[kind];
  const cents = logBetween(unitHash(marketHashName), low, high) * (1 + 10 * age ** 3);
  const popularity = 0.55 * (1.2 - 0.6 * age) * (0.6 + 0.8 * unitHash(`${marketHashName}#pop`));
  return { referencePriceCents: toCents(cents), popularity: toPopularity(popularity) };
}

/** Keys and tools sell close to their store price (about $2). */
export function toolFields(marketHashName: string): SimulatorFields {
  const unit = unitHash(marketHashName);
  return {
    referencePriceCents: toCents(logBetween(unit, 150, 300)),
    popularity: toPopularity(0.4 * (0.6 + 0.8 * unitHash(`${marketHashName}#pop`))),
  };
}
