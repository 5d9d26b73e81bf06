/**
 * Steam assets joined to their descriptions, as the client's inventory items: tags give exterior,
 * rarity, weapon and quality; the inspect action gives the inspect link (Steam's `%owner_steamid%`,
 * `%assetid%` and `%propid:N%` placeholders filled in, the last from the asset's property N, e.g.
 * 6, the item certificate that newer links embed); the `sticker_info` line gives the stickers;
 * asset properties give the float (`Wear Rating`, id 2), the paint seed (`Pattern Template`, id 1)
 * and, where present, the paint index (`Paint Index`) that tells Doppler phases apart.
 */
import type { InventoryItem, InventorySticker } from '../domain/inventory.ts';
import type { SteamDescription, SteamPage, SteamProperty } from './steam-page.ts';

const WEAR_RATING = 2;
const PATTERN_TEMPLATE = 1;

const tag = (description: SteamDescription, category: string) =>
  description.tags.find((entry) => entry.category === category)?.name;

/** The link with its placeholders filled; undefined when an asset property it names is absent. */
function inspectLink(
  description: SteamDescription,
  steamId: string,
  assetId: string,
  properties: readonly SteamProperty[],
) {
  const link = description.actionLinks.find((entry) => entry.includes('csgo_econ_action_preview'));
  let missing = false;
  const filled = link
    ?.replaceAll('%owner_steamid%', steamId)
    .replaceAll('%assetid%', assetId)
    .replace(/%propid:(\d+)%/g, (_, id: string) => {
      const value = properties.find((entry) => entry.propertyId === Number(id))?.value;
      if (typeof value !== 'string' || value.length === 0) missing = true;
      return String(value);
    });
  return missing ? undefined : filled;
}

/** Names after `Sticker:` in the sticker_info line, one slot each, in Steam's order. */
export function stickersOf(description: SteamDescription): InventorySticker[] | undefined {
  const line = description.lines.find((entry) => entry.name === 'sticker_info');
  const match = line ? /Sticker: ([^<]+)/.exec(line.value) : null;
  if (!match?.[1]) return undefined;
  return match[1]
    .split(', ')
    .map((name, slot) => ({ slot, name: name.trim() }))
    .filter((sticker) => sticker.name.length > 0);
}

function property(properties: readonly SteamProperty[], id: number, name: string) {
  const found = properties.find((entry) => entry.propertyId === id || entry.name === name);
  return typeof found?.value === 'number' ? found.value : undefined;
}

function attributes(properties: readonly SteamProperty[]) {
  const floatValue = property(properties, WEAR_RATING, 'Wear Rating');
  const paintSeed = property(properties, PATTERN_TEMPLATE, 'Pattern Template');
  const paintIndex = properties.find((entry) => entry.name === 'Paint Index')?.value;
  return {
    ...(floatValue !== undefined && floatValue >= 0 && floatValue <= 1 ? { floatValue } : {}),
    ...(paintSeed !== undefined && Number.isSafeInteger(paintSeed) ? { paintSeed } : {}),
    ...(typeof paintIndex === 'number' && Number.isSafeInteger(paintIndex) ? { paintIndex } : {}),
  };
}

const optional = <K extends string, V>(key: K, value: V | undefined | null) =>
  (value === undefined || value === null ? {} : { [key]: value }) as Partial<Record<K, V>>;

/** Every asset of the page with its description; an asset without one is skipped. */
export function pageItems(page: SteamPage, steamId: string): InventoryItem[] {
  const byClass = new Map(
    page.descriptions.map((entry) => [`${entry.classId}_${entry.instanceId}`, entry]),
  );
  return page.assets.flatMap((asset) => {
    const description = byClass.get(`${asset.classId}_${asset.instanceId}`);
    if (!description) return [];
    const properties = page.properties.get(asset.assetId) ?? [];
    const item: InventoryItem = {
      assetId: asset.assetId,
      classId: asset.classId,
      instanceId: asset.instanceId,
      marketHashName: description.marketHashName,
      marketName: description.marketName,
      ...optional('iconUrl', description.iconUrl),
      ...optional('inspectLink', inspectLink(description, steamId, asset.assetId, properties)),
      tradable: description.tradable,
      marketable: description.marketable,
      ...optional('exterior', tag(description, 'Exterior')),
      ...optional('rarity', tag(description, 'Rarity')),
      ...optional('weaponType', tag(description, 'Weapon') ?? tag(description, 'Type')),
      ...optional('quality', tag(description, 'Quality')),
      ...optional('stickers', stickersOf(description)),
      ...attributes(properties),
      amount: asset.amount,
      canonicalItemId: null,
    };
    return [item];
  });
}
