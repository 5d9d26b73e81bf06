/**
 * One page of Steam's public inventory endpoint, `GET /inventory/{steamid}/{appid}/{contextid}`,
 * checked field by field. Shape (public knowledge of the endpoint, as used by every open inventory
 * reader): `assets[] {assetid, classid, instanceid, amount}`, `descriptions[] {classid,
 * instanceid, market_hash_name, market_name, icon_url, tradable, marketable, tags[], actions[],
 * descriptions[]}`, optional `asset_properties[] {assetid, asset_properties[] {propertyid,
 * int_value | float_value | string_value, name?}}`, `more_items`, `last_assetid`,
 * `total_inventory_count`, `success`. Anything else is a failure with a sentence.
 */
export class InventorySourceError extends Error {}

export interface SteamTag {
  category: string;
  name: string;
}

export interface SteamDescription {
  classId: string;
  instanceId: string;
  marketHashName: string;
  marketName: string;
  iconUrl: string | null;
  tradable: boolean;
  marketable: boolean;
  tags: SteamTag[];
  actionLinks: string[];
  /** The `descriptions[]` lines: name → value (HTML as Steam sends it). */
  lines: { name: string; value: string }[];
}

export interface SteamAsset {
  assetId: string;
  classId: string;
  instanceId: string;
  amount: number;
}

export interface SteamProperty {
  propertyId: number;
  name: string | null;
  value: number | string;
}

export interface SteamPage {
  assets: SteamAsset[];
  descriptions: SteamDescription[];
  properties: Map<string, SteamProperty[]>;
  moreItems: boolean;
  lastAssetId: string | null;
  total: number | null;
}

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const idText = (value: unknown): string | null =>
  typeof value === 'string' && /^\d{1,20}$/.test(value)
    ? value
    : typeof value === 'number' && Number.isSafeInteger(value) && value >= 0
      ? String(value)
      : null;

const flag = (value: unknown) => value === 1 || value === true || value === '1';

const arrayOf = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

function parseAsset(raw: unknown): SteamAsset {
  const asset = isObject(raw) ? raw : {};
  const assetId = idText(asset.assetid);
  const classId = idText(asset.classid);
  const instanceId = idText(asset.instanceid ?? '0');
  const amount = Number(asset.amount ?? 1);
  if (!assetId || !classId || !instanceId || !Number.isSafeInteger(amount) || amount < 1) {
    throw new InventorySourceError('Steam returned an inventory asset without valid ids.');
  }
  return { assetId, classId, instanceId, amount };
}

function parseTag(raw: unknown): SteamTag | null {
  if (!isObject(raw) || typeof raw.category !== 'string') return null;
  const name = raw.localized_tag_name ?? raw.name ?? raw.internal_name;
  return typeof name === 'string' ? { category: raw.category, name } : null;
}

const links = (value: unknown): string[] =>
  arrayOf(value).flatMap((action) =>
    isObject(action) && typeof action.link === 'string' ? [action.link] : [],
  );

function parseDescription(raw: unknown): SteamDescription {
  const entry = isObject(raw) ? raw : {};
  const classId = idText(entry.classid);
  const instanceId = idText(entry.instanceid ?? '0');
  const hashName = entry.market_hash_name;
  if (!classId || !instanceId || typeof hashName !== 'string' || hashName.length === 0) {
    throw new InventorySourceError('Steam returned an item description without a market name.');
  }
  return {
    classId,
    instanceId,
    marketHashName: hashName,
    marketName: typeof entry.market_name === 'string' ? entry.market_name : hashName,
    iconUrl: typeof entry.icon_url === 'string' ? entry.icon_url : null,
    tradable: flag(entry.tradable),
    marketable: flag(entry.marketable),
    tags: arrayOf(entry.tags).flatMap((tag) => parseTag(tag) ?? []),
    actionLinks: [...links(entry.actions), ...links(entry.market_actions)],
    lines: arrayOf(entry.descriptions).flatMap((line) =>
      isObject(line) && typeof line.value === 'string'
        ? [{ name: typeof line.name === 'string' ? line.name : '', value: line.value }]
        : [],
    ),
  };
}

function parseProperty(raw: unknown): SteamProperty | null {
  if (!isObject(raw) || typeof raw.propertyid !== 'number') return null;
  const value = raw.float_value ?? raw.int_value ?? raw.string_value;
  const numeric =
    typeof value === 'string' && raw.string_value === undefined ? Number(value) : value;
  if (typeof numeric !== 'number' && typeof numeric !== 'string') return null;
  if (typeof numeric === 'number' && !Number.isFinite(numeric)) return null;
  return {
    propertyId: raw.propertyid,
    name: typeof raw.name === 'string' ? raw.name : null,
    value: numeric,
  };
}

function parseProperties(value: unknown): Map<string, SteamProperty[]> {
  const byAsset = new Map<string, SteamProperty[]>();
  for (const entry of arrayOf(value)) {
    const assetId = isObject(entry) ? idText(entry.assetid) : null;
    if (!assetId || !isObject(entry)) continue;
    byAsset.set(
      assetId,
      arrayOf(entry.asset_properties).flatMap((raw) => parseProperty(raw) ?? []),
    );
  }
  return byAsset;
}

/** A decoded JSON body of one page; throws InventorySourceError with a sentence when unusable. */
export function parseSteamPage(body: unknown): SteamPage {
  if (!isObject(body)) {
    throw new InventorySourceError('The inventory is private or the Steam ID has none.');
  }
  if (!flag(body.success)) {
    const reason = typeof body.Error === 'string' ? `: ${body.Error}` : '';
    throw new InventorySourceError(`Steam refused the inventory request${reason}.`);
  }
  const total = Number(body.total_inventory_count);
  return {
    assets: arrayOf(body.assets).map(parseAsset),
    descriptions: arrayOf(body.descriptions).map(parseDescription),
    properties: parseProperties(body.asset_properties),
    moreItems: flag(body.more_items),
    lastAssetId: idText(body.last_assetid),
    total: Number.isSafeInteger(total) && total >= 0 ? total : null,
  };
}
