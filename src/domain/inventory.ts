/**
 * Steam inventory snapshots: the items of one Steam ID's inventory as fetched at one moment, with
 * the status of the fetch. Field names follow the official client's inventory types
 * (Skinpricer/sdk v0.3.0, src/types/inventory.ts); `canonicalItemId` is our extra.
 */
export const INVENTORY_STATUSES = [
  'PENDING',
  'FETCHING',
  'INSPECTING',
  'COMPLETED',
  'FAILED',
] as const;
export type InventoryStatus = (typeof INVENTORY_STATUSES)[number];

export const CS2_APP_ID = 730;
export const RUST_APP_ID = 252490;
export const DEFAULT_CONTEXT_ID = 2;

export interface InventorySticker {
  slot: number;
  name: string;
  wear?: number;
  stickerId?: number;
}

export interface InventoryItem {
  assetId: string;
  classId: string;
  instanceId: string;
  marketHashName: string;
  marketName: string;
  iconUrl?: string;
  inspectLink?: string;
  tradable: boolean;
  marketable: boolean;
  exterior?: string;
  rarity?: string;
  weaponType?: string;
  quality?: string;
  floatValue?: number;
  paintSeed?: number;
  paintIndex?: number;
  stickers?: InventorySticker[];
  inspectedAt?: string;
  /** Units in this stack (Steam's asset `amount`; 1 for skins). */
  amount: number;
  /** Our catalog's id for the item; null when the name does not resolve (never guessed). */
  canonicalItemId: string | null;
}

export interface InventoryRequest {
  targetSteamId: string;
  appId: number;
  contextId: number;
  tradableOnly: boolean;
  /** Advanced fetch: how many items may be inspected (0 for a plain fetch). */
  maxInspections: number;
}

export interface InventorySnapshot extends InventoryRequest {
  id: string;
  accountId: string;
  status: InventoryStatus;
  createdAt: number;
  completedAt: number | null;
  itemCount: number | null;
  inspectedCount: number | null;
  unresolvedCount: number | null;
  error: string | null;
  items: InventoryItem[] | null;
}

/** What a fetch moves a snapshot to; fields absent stay as they are. */
export interface InventoryUpdate {
  status: InventoryStatus;
  completedAt?: number;
  itemCount?: number;
  inspectedCount?: number;
  unresolvedCount?: number;
  error?: string;
  items?: InventoryItem[];
}

/** A 17-digit Steam64 id of an individual account (universe 1, type 1: 7656119…). */
export function isSteam64(value: string): boolean {
  return /^7656119\d{10}$/.test(value);
}
