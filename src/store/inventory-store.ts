/**
 * The inventory snapshot store port: one row per fetch, its status moved as the fetch proceeds,
 * its items stored as fetched (never prices: valuations are priced at read time). SQLite and
 * PostgreSQL implement it; inventory-store-contract.ts is the one suite both pass.
 */
import type { InventorySnapshot, InventoryUpdate } from '../domain/inventory.ts';

export interface InventoryHistoryPage {
  /** Newest first, without items. */
  snapshots: InventorySnapshot[];
  total: number;
}

export interface InventoryStore {
  init(): Promise<void>;
  create(snapshot: InventorySnapshot): Promise<void>;
  update(id: string, update: InventoryUpdate): Promise<void>;
  get(id: string): Promise<InventorySnapshot | null>;
  history(steamId: string, limit: number, offset: number): Promise<InventoryHistoryPage>;
  /** Snapshots an account created at or after `sinceMs` (the per-hour fetch limit). */
  countSince(accountId: string, sinceMs: number): Promise<number>;
  close(): Promise<void>;
}

/** The columns both implementations store, in one order. */
export interface InventoryRow {
  id: string;
  account_id: string;
  target_steam_id: string;
  app_id: number;
  context_id: number;
  tradable_only: number;
  max_inspections: number;
  status: string;
  created_at: number;
  completed_at: number | null;
  item_count: number | null;
  inspected_count: number | null;
  unresolved_count: number | null;
  error: string | null;
  items: string | null;
}

export function snapshotFromRow(row: InventoryRow, withItems: boolean): InventorySnapshot {
  return {
    id: row.id,
    accountId: row.account_id,
    targetSteamId: row.target_steam_id,
    appId: Number(row.app_id),
    contextId: Number(row.context_id),
    tradableOnly: Boolean(row.tradable_only),
    maxInspections: Number(row.max_inspections),
    status: row.status as InventorySnapshot['status'],
    createdAt: Number(row.created_at),
    completedAt: row.completed_at === null ? null : Number(row.completed_at),
    itemCount: row.item_count,
    inspectedCount: row.inspected_count,
    unresolvedCount: row.unresolved_count,
    error: row.error,
    items:
      withItems && row.items !== null
        ? (JSON.parse(row.items) as InventorySnapshot['items'])
        : null,
  };
}

export function rowValues(snapshot: InventorySnapshot): unknown[] {
  return [
    snapshot.id,
    snapshot.accountId,
    snapshot.targetSteamId,
    snapshot.appId,
    snapshot.contextId,
    snapshot.tradableOnly ? 1 : 0,
    snapshot.maxInspections,
    snapshot.status,
    snapshot.createdAt,
    snapshot.completedAt,
    snapshot.itemCount,
    snapshot.inspectedCount,
    snapshot.unresolvedCount,
    snapshot.error,
    snapshot.items === null ? null : JSON.stringify(snapshot.items),
  ];
}

/** Update columns and values: status always, the rest only when given. */
export function updateValues(update: InventoryUpdate): [string[], unknown[]] {
  const pairs: [string, unknown][] = [['status', update.status]];
  if (update.completedAt !== undefined) pairs.push(['completed_at', update.completedAt]);
  if (update.itemCount !== undefined) pairs.push(['item_count', update.itemCount]);
  if (update.inspectedCount !== undefined) pairs.push(['inspected_count', update.inspectedCount]);
  if (update.unresolvedCount !== undefined) {
    pairs.push(['unresolved_count', update.unresolvedCount]);
  }
  if (update.error !== undefined) pairs.push(['error', update.error]);
  if (update.items !== undefined) pairs.push(['items', JSON.stringify(update.items)]);
  return [pairs.map(([column]) => column), pairs.map(([, value]) => value)];
}

export const INVENTORY_COLUMNS =
  'id, account_id, target_steam_id, app_id, context_id, tradable_only, max_inspections, status, ' +
  'created_at, completed_at, item_count, inspected_count, unresolved_count, error, items';

export const SUMMARY_COLUMNS = INVENTORY_COLUMNS.replace(', items', ', NULL AS items');
