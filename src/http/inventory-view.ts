/**
 * How an inventory snapshot is served, shared by the key-gated inventory routes and the
 * terminal's: the status fields, the summary (ISO times), and once COMPLETED the items with the
 * valuation priced from the book at the moment of the read.
 */
import { iso } from '../domain/clock.ts';
import { ApiError, notFound } from '../domain/errors.ts';
import type { InventorySnapshot } from '../domain/inventory.ts';
import { gameOfApp, type InventoryService } from '../inventory/service.ts';
import { valueInventory, type InventoryValuation } from '../inventory/valuation.ts';
import { LIQUIDITY_MARKETS } from '../liquidity/markets.ts';
import { DEFAULT_FEE_MODEL } from '../markets/fees.ts';
import type { AppDeps } from './deps.ts';

/** The inventory service; 503 when the process runs without one. */
export function inventoryService(deps: AppDeps): InventoryService {
  if (!deps.inventory)
    throw new ApiError(503, 'UNAVAILABLE', 'Inventory fetches are not configured');
  return deps.inventory;
}

export async function storedSnapshot(deps: AppDeps, id: string): Promise<InventorySnapshot> {
  const snapshot = await inventoryService(deps).get(id);
  if (!snapshot) throw notFound('No inventory snapshot with this id');
  return snapshot;
}

export function statusOf(snapshot: InventorySnapshot) {
  return {
    id: snapshot.id,
    status: snapshot.status,
    ...(snapshot.itemCount === null ? {} : { itemCount: snapshot.itemCount }),
    ...(snapshot.inspectedCount === null ? {} : { inspectedCount: snapshot.inspectedCount }),
    ...(snapshot.unresolvedCount === null ? {} : { unresolvedCount: snapshot.unresolvedCount }),
    ...(snapshot.error === null ? {} : { error: snapshot.error }),
  };
}

export function summaryOf(snapshot: InventorySnapshot) {
  return {
    ...statusOf(snapshot),
    targetSteamId: snapshot.targetSteamId,
    appId: snapshot.appId,
    contextId: snapshot.contextId,
    createdAt: iso(snapshot.createdAt),
    ...(snapshot.completedAt === null ? {} : { completedAt: iso(snapshot.completedAt) }),
  };
}

export function valuationOf(deps: AppDeps, snapshot: InventorySnapshot): InventoryValuation {
  const game = gameOfApp(snapshot.appId);
  const catalog = deps.catalogs[game];
  return valueInventory(snapshot.items ?? [], {
    book: deps.book,
    game,
    byId: (id) => catalog.byId(id),
    feeModel: deps.feeModel ?? DEFAULT_FEE_MODEL,
    markets: LIQUIDITY_MARKETS[game],
    now: deps.clock.now(),
  });
}

export function serveValuation(valuation: InventoryValuation) {
  return { ...valuation, calculatedAt: iso(valuation.calculatedAt) };
}

/** The summary; once COMPLETED also the items and the valuation priced now. */
export function snapshotBody(deps: AppDeps, snapshot: InventorySnapshot) {
  if (snapshot.status !== 'COMPLETED') return summaryOf(snapshot);
  return {
    ...summaryOf(snapshot),
    items: snapshot.items ?? [],
    valuation: serveValuation(valuationOf(deps, snapshot)),
  };
}
