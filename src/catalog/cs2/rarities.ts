/**
 * CS2 rarity registry. The library gives each item a rarity colour; the key depends on the
 * item kind, as on Steam: weapon skins and knives use the weapon scale (Consumer … Covert),
 * gloves, stickers, charms, patches, graffiti, music kits and containers the misc scale
 * (Base Grade … Extraordinary), agents the agent scale. Gold is Contraband everywhere.
 */
import type { Rarity } from '../../domain/item.ts';

export type RarityScale = 'weapon' | 'misc' | 'agent';

export const CS2_RARITIES: readonly Rarity[] = [
  { key: 'consumer_grade', name: 'Consumer Grade', tier: 1, color: '#b0c3d9' },
  { key: 'industrial_grade', name: 'Industrial Grade', tier: 2, color: '#5e98d9' },
  { key: 'mil_spec', name: 'Mil-Spec Grade', tier: 3, color: '#4b69ff' },
  { key: 'restricted', name: 'Restricted', tier: 4, color: '#8847ff' },
  { key: 'classified', name: 'Classified', tier: 5, color: '#d32ce6' },
  { key: 'covert', name: 'Covert', tier: 6, color: '#eb4b4b' },
  { key: 'contraband', name: 'Contraband', tier: 7, color: '#e4ae39' },
  { key: 'base_grade', name: 'Base Grade', tier: 1, color: '#b0c3d9' },
  { key: 'high_grade', name: 'High Grade', tier: 3, color: '#4b69ff' },
  { key: 'remarkable', name: 'Remarkable', tier: 4, color: '#8847ff' },
  { key: 'exotic', name: 'Exotic', tier: 5, color: '#d32ce6' },
  { key: 'extraordinary', name: 'Extraordinary', tier: 6, color: '#eb4b4b' },
  { key: 'distinguished', name: 'Distinguished', tier: 3, color: '#4b69ff' },
  { key: 'exceptional', name: 'Exceptional', tier: 4, color: '#8847ff' },
  { key: 'superior', name: 'Superior', tier: 5, color: '#d32ce6' },
  { key: 'master', name: 'Master', tier: 6, color: '#eb4b4b' },
];

const SCALES: Readonly<Record<RarityScale, readonly string[]>> = {
  weapon: ['consumer_grade', 'industrial_grade', 'mil_spec', 'restricted', 'classified', 'covert'],
  misc: ['base_grade', 'base_grade', 'high_grade', 'remarkable', 'exotic', 'extraordinary'],
  agent: ['distinguished', 'distinguished', 'distinguished', 'exceptional', 'superior', 'master'],
};

/** Library colour → step 0..5 on a scale; the grey "default" counts as the lowest step. */
const COLOR_STEP: Readonly<Record<string, number>> = {
  '#ded6cc': 0,
  '#b0c3d9': 0,
  '#5e98d9': 1,
  '#4b69ff': 2,
  '#8847ff': 3,
  '#d32ce6': 4,
  '#eb4b4b': 5,
};

const CONTRABAND_COLOR = '#e4ae39';

export function rarityKey(scale: RarityScale, color: string | undefined): string | undefined {
  if (color === undefined) return undefined;
  if (color.toLowerCase() === CONTRABAND_COLOR) return 'contraband';
  const step = COLOR_STEP[color.toLowerCase()];
  return step === undefined ? undefined : SCALES[scale][step];
}

const TIER_BY_KEY = new Map(CS2_RARITIES.map((rarity) => [rarity.key, rarity.tier]));

export function rarityTier(key: string | undefined): number {
  return (key && TIER_BY_KEY.get(key)) || 1;
}
