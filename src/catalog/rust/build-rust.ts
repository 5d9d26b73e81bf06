/**
 * Builds the Rust catalog from the hand-curated name lists next to this file: plain names (no
 * exterior, float, StatTrak™ or Souvenir), category `skin` (or `other` for stand-alone
 * deployables), with simulator reference prices and popularity from a stable name hash.
 */
import type { CatalogItem, ItemCategory } from '../../domain/item.ts';
import {
  RUST_APPAREL_SKINS,
  RUST_DEPLOYABLE_SKINS,
  RUST_OTHER_ITEMS,
} from './apparel-skin-names.ts';
import { RUST_WEAPON_SKINS } from './weapon-skin-names.ts';
import { finalizeItems } from '../finalize.ts';
import type { ItemDraft } from '../finalize.ts';
import { logBetween, toCents, toPopularity, unitHash } from '../price-hash.ts';

export interface RustEntry {
  /** The in-game item the skin applies to, e.g. `Assault Rifle`, `Hoodie`. */
  itemType: string;
  name: string;
}

type Group = 'weapon' | 'apparel' | 'deployable' | 'other';

const PRICE_RANGE: Readonly<Record<Group, readonly [number, number]>> = {
  weapon: [80, 3_000],
  apparel: [30, 1_500],
  deployable: [50, 2_000],
  other: [100, 1_000],
};

/** The market's well-known expensive skins, so the simulator does not price them like filler. */
const FAMOUS: Readonly<Record<string, number>> = {
  'Big Grin': 20,
  'Punishment Mask': 15,
  'Alien Red': 6,
  'Tempered AK47': 5,
  'Glory AK47': 4,
  'Glowing Skull': 5,
  'No Mercy AK47': 3,
  'Tempered Mask': 3,
  'Whiteout Facemask': 2.5,
  'Blackout Facemask': 2.5,
};

/** Parses `<item type>: <name>; <name>` lines; blank lines are skipped. */
export function parseRustList(text: string): RustEntry[] {
  const entries: RustEntry[] = [];
  for (const line of text.split('\n')) {
    const colon = line.indexOf(':');
    if (colon < 0) continue;
    const itemType = line.slice(0, colon).trim();
    for (const raw of line.slice(colon + 1).split(';')) {
      const name = raw.trim();
      if (name !== '') entries.push({ itemType, name });
    }
  }
  return entries;
}

export function buildRust(): CatalogItem[] {
  const groups: readonly (readonly [Group, string])[] = [
    ['weapon', RUST_WEAPON_SKINS],
    ['apparel', RUST_APPAREL_SKINS],
    ['deployable', RUST_DEPLOYABLE_SKINS],
    ['other', RUST_OTHER_ITEMS],
  ];
  const drafts = groups.flatMap(([group, text]) =>
    parseRustList(text).map((entry) => rustDraft(group, entry)),
  );
  return finalizeItems('rust', drafts);
}

function rustDraft(group: Group, entry: RustEntry): ItemDraft {
  const category: ItemCategory = group === 'other' ? 'other' : 'skin';
  const [low, high] = PRICE_RANGE[group];
  const famous = FAMOUS[entry.name] ?? 1;
  const price = logBetween(unitHash(entry.name), low, high) * famous;
  const popularity =
    (group === 'weapon' ? 0.45 : 0.3) *
    (0.6 + 0.8 * unitHash(`${entry.name}#popularity`)) *
    (famous > 1 ? 1.6 : 1);
  return {
    marketHashName: entry.name,
    category,
    ...(group === 'weapon' ? { weapon: entry.itemType } : {}),
    referencePriceCents: toCents(price),
    popularity: toPopularity(popularity),
  };
}
