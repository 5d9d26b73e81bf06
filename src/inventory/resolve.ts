/**
 * Inventory names → our catalog. The exact name (with the catalog's usual spelling repairs); a
 * Doppler / Gamma Doppler base name with a paint index resolves to that phase's own entry. A
 * name that does not resolve keeps `canonicalItemId: null` and is counted; nothing is guessed.
 */
import type { Catalog } from '../catalog/catalog.ts';
import { resolveItem } from '../catalog/resolve-item.ts';
import { resolveVariant } from '../catalog/variants.ts';
import type { InventoryItem } from '../domain/inventory.ts';

export function resolveInventoryItem(catalog: Catalog, item: InventoryItem): InventoryItem {
  const base = resolveItem(catalog, item.marketHashName);
  if (!base) return { ...item, canonicalItemId: null };
  const variant =
    item.paintIndex !== undefined ? resolveVariant(catalog, base.id, item.paintIndex) : undefined;
  return { ...item, canonicalItemId: (variant ?? base).id };
}

export function resolveInventory(catalog: Catalog, items: readonly InventoryItem[]) {
  const resolved = items.map((item) => resolveInventoryItem(catalog, item));
  const unresolvedCount = resolved.filter((item) => item.canonicalItemId === null).length;
  return { items: resolved, unresolvedCount };
}
