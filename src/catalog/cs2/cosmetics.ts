/**
 * CS2 items without exteriors: stickers, sticker slabs and charms (category `charm`), patches,
 * graffiti, agents, music kits (with StatTrak™ versions) and collectible pins. Names follow the
 * library except where Steam differs: graffiti trade as `Sealed Graffiti | …`, agents and pins
 * drop the library's `Agent | ` / `Collectible | ` prefix. Duplicate library names are merged.
 */
import type { CS2Item } from '@ianlucas/cs2-lib';
import type { ItemCategory } from '../../domain/item.ts';
import type { ItemDraft } from '../finalize.ts';
import { stripPrefix } from './containers.ts';
import { miscFields } from './price-model.ts';
import { rarityKey } from './rarities.ts';
import type { RarityScale } from './rarities.ts';
import type { Cs2Source } from './source.ts';

interface CosmeticRule {
  category: ItemCategory;
  scale: RarityScale;
  /** Steam name from the library name, or undefined when the item does not trade. */
  steamName(libraryName: string): string | undefined;
}

const keep = (name: string): string => name;

const RULES: Readonly<Record<string, CosmeticRule>> = {
  sticker: { category: 'sticker', scale: 'misc', steamName: keep },
  keychain: { category: 'charm', scale: 'misc', steamName: keep },
  patch: { category: 'patch', scale: 'misc', steamName: keep },
  graffiti: {
    category: 'graffiti',
    scale: 'misc',
    steamName: (name) => `Sealed ${name}`,
  },
  agent: { category: 'agent', scale: 'agent', steamName: (name) => stripPrefix(name, 'Agent | ') },
  musickit: { category: 'music_kit', scale: 'misc', steamName: keep },
  collectible: {
    category: 'collectible',
    scale: 'misc',
    steamName: (name) => (name.endsWith(' Pin') ? stripPrefix(name, 'Collectible | ') : undefined),
  },
};

const ORDER = ['sticker', 'keychain', 'patch', 'graffiti', 'agent', 'musickit', 'collectible'];

export function cosmeticDrafts(source: Cs2Source): ItemDraft[] {
  const seen = new Set<string>();
  const drafts: ItemDraft[] = [];
  for (const type of ORDER) {
    const rule = RULES[type] as CosmeticRule;
    for (const item of source.items) {
      if (item.type !== type || item.free === true) continue;
      const marketHashName = rule.steamName(source.name(item));
      if (!marketHashName || seen.has(marketHashName)) continue;
      seen.add(marketHashName);
      drafts.push(cosmeticDraft(source, item, rule, marketHashName, false));
      if (type === 'musickit') {
        const stattrakName = `StatTrak™ ${marketHashName}`;
        seen.add(stattrakName);
        drafts.push(cosmeticDraft(source, item, rule, stattrakName, true));
      }
    }
  }
  return drafts;
}

function cosmeticDraft(
  source: Cs2Source,
  item: CS2Item,
  rule: CosmeticRule,
  marketHashName: string,
  stattrak: boolean,
): ItemDraft {
  const rarity = rarityKey(rule.scale, item.rarity);
  const image = source.imageUrl(item.image);
  const musicKit = rule.category === 'music_kit';
  return {
    marketHashName,
    category: rule.category,
    ...(musicKit ? { baseName: source.name(item) } : {}),
    ...(rarity ? { rarity } : {}),
    ...(stattrak ? { stattrak: true } : {}),
    ...(musicKit ? { hasStattrak: true } : {}),
    ...(item.collection ? { collections: [item.collection] } : {}),
    ...(image ? { image } : {}),
    ...miscFields({
      category: rule.category,
      marketHashName,
      ...(rarity ? { rarity } : {}),
      stattrak,
    }),
  };
}
