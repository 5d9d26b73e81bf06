/**
 * The simulator's view of a catalog: per item a hash key, popularity, reference price, the float
 * band listings draw from and the Doppler phases they can carry. Built once per catalog and
 * ranked by popularity (most popular first), which is the order universes are cut in.
 */
import type { Game } from '../../domain/games.ts';
import type { CatalogItem } from '../../domain/item.ts';
import { hashString, mix, unit } from './random.ts';

export interface DopplerChoice {
  phase: string;
  paintIndex: number;
  /** Relative price of this phase against the item's reference price. */
  premium: number;
  weight: number;
}

export interface SimItem {
  item: CatalogItem;
  name: string;
  key: number;
  /** Keys of the item's price-noise octaves (precomputed: the model reads them constantly). */
  noiseKeys: readonly [number, number, number, number, number];
  /** 0 (rarely traded) .. 1 (traded all day). */
  popularity: number;
  refCents: number;
  /** Floats listings may carry: the item's range within its exterior; null for no floats. */
  floatBand: { min: number; max: number } | null;
  dopplers: DopplerChoice[] | null;
  paintIndex: number | null;
  isStatTrak: boolean;
  /** The name Steam and the markets filing phases under it use, and the Doppler phase label. */
  steam: Readonly<{ name: string; phase: string | null }>;
}

export interface SimGame {
  game: Game;
  /** Most popular first. */
  items: SimItem[];
  stickerNames: string[];
}

const WEAR_BANDS: Readonly<Record<string, { min: number; max: number }>> = {
  factorynew: { min: 0, max: 0.07 },
  fn: { min: 0, max: 0.07 },
  minimalwear: { min: 0.07, max: 0.15 },
  mw: { min: 0.07, max: 0.15 },
  fieldtested: { min: 0.15, max: 0.38 },
  ft: { min: 0.15, max: 0.38 },
  wellworn: { min: 0.38, max: 0.45 },
  ww: { min: 0.38, max: 0.45 },
  battlescarred: { min: 0.45, max: 1 },
  bs: { min: 0.45, max: 1 },
};

const WEAR_IN_NAME = /\((Factory New|Minimal Wear|Field-Tested|Well-Worn|Battle-Scarred)\)$/;
const FLOAT_CATEGORIES = new Set(['skin', 'knife', 'gloves']);
const GEMS: Readonly<Record<string, number>> = {
  Ruby: 6,
  Sapphire: 7,
  'Black Pearl': 3.5,
  Emerald: 8,
};

function wearBand(item: CatalogItem): { min: number; max: number } | null {
  const wear = item.wear ?? WEAR_IN_NAME.exec(item.marketHashName)?.[1];
  if (wear === undefined) return null;
  return WEAR_BANDS[wear.toLowerCase().replace(/[^a-z]/g, '')] ?? null;
}

export function floatBandOf(item: CatalogItem): { min: number; max: number } | null {
  if (item.game !== 'cs2' || !FLOAT_CATEGORIES.has(item.category)) return null;
  const range = item.floatRange ?? null;
  const wear = wearBand(item);
  if (range === null) return wear;
  if (wear === null) return range;
  const min = Math.max(range.min, wear.min);
  const max = Math.min(range.max, wear.max);
  return min < max ? { min, max } : range;
}

function phasePremium(phase: string): number {
  return GEMS[phase] ?? (phase === 'Phase 2' || phase === 'Phase 4' ? 1.15 : 1);
}

function dopplersOf(item: CatalogItem): DopplerChoice[] | null {
  if (item.variants && item.variants.length > 0) {
    return item.variants.map((variant) => ({
      phase: variant.name,
      paintIndex: variant.paintIndex,
      premium: phasePremium(variant.name),
      weight: GEMS[variant.name] === undefined ? 1 : 0.06,
    }));
  }
  if (item.variantOf !== undefined && item.phase !== undefined && item.paintIndex !== undefined) {
    return [{ phase: item.phase, paintIndex: item.paintIndex, premium: 1, weight: 1 }];
  }
  return null;
}

function steamNameAndPhaseOf(item: CatalogItem): SimItem['steam'] {
  const phase = item.phase;
  if (item.variantOf === undefined || phase === undefined) {
    return { name: item.marketHashName, phase: null };
  }
  return { name: item.marketHashName.replace(` ${phase}`, ''), phase };
}

/** Items without simulator hints get a skewed popularity and a log-spread price. */
function toSimItem(seed: number, item: CatalogItem): SimItem {
  const key = mix(seed, hashString(item.id));
  const popularity = item.popularity ?? unit(mix(key, 1)) ** 3;
  const refCents = item.referencePriceCents ?? Math.round(3 + Math.exp(unit(mix(key, 2)) * 10));
  return {
    item,
    name: item.marketHashName,
    key,
    noiseKeys: [mix(key, 11), mix(key, 12), mix(key, 13), mix(key, 14), mix(key, 21)],
    popularity: Math.min(1, Math.max(0, popularity)),
    refCents: Math.max(1, refCents),
    floatBand: floatBandOf(item),
    dopplers: dopplersOf(item),
    paintIndex: item.paintIndex ?? null,
    isStatTrak: item.stattrak === true || item.marketHashName.includes('StatTrak™'),
    steam: steamNameAndPhaseOf(item),
  };
}

export function buildSimGame(seed: number, game: Game, items: readonly CatalogItem[]): SimGame {
  const simItems = items.map((item) => toSimItem(seed, item));
  simItems.sort((a, b) => b.popularity - a.popularity || a.key - b.key);
  const stickerNames = items
    .filter((item) => item.category === 'sticker')
    .slice(0, 500)
    .map((item) => item.marketHashName.replace(/^Sticker \| /, ''));
  return { game, items: simItems, stickerNames };
}
