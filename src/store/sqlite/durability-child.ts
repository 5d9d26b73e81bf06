/**
 * Writer process for the durability test: commits numbered batches to the store at argv[2]
 * forever, printing each batch number on stdout only after writeBatch has resolved. With
 * argv[3] = 'folding' it also folds its rollup journal every FOLD_EVERY batches.
 * Batch k holds sidesPerBatch(mode) sides whose fetchedAt is DURABILITY_T0 + k. With argv[3] =
 * 'snapshotting' the batches rewrite a fixed set of SNAPSHOT_ITEMS items (snapshotSide) and the
 * store snapshots its latest sides whenever it can, printing `step <name>` after each step.
 * With argv[3] = 'sales' batch k holds SALES_PER_BATCH sales sold at DURABILITY_T0 + k instead.
 */
import type { SaleRecord, SideSnapshot } from '../../domain/quote.ts';
import { createSqlitePriceStore } from './sqlite-price-store.ts';

export const DURABILITY_T0 = 1_793_491_200_000;
const FOLD_EVERY = 12;
/** Ten parts of PART_ENTRIES per market: a snapshot spans many steps for the kill to land in. */
export const SNAPSHOT_ITEMS = 20_000;

/**
 * Sides per batch: a whole transaction each way; the snapshotting writer's are larger, so its
 * log outgrows the snapshot (and a new one starts) every ten batches.
 */
export function sidesPerBatch(mode: string): number {
  return mode === 'snapshotting' ? 2000 : 500;
}

/** The side of item `index` as batch k of the snapshotting writer writes it. */
export function snapshotSide(batchNumber: number, index: number): SideSnapshot {
  return durableSide(batchNumber, `item-${index}`, 1000 + batchNumber);
}

function snapshottingSides(batchNumber: number): SideSnapshot[] {
  const count = sidesPerBatch('snapshotting');
  return Array.from({ length: count }, (_, offset) =>
    snapshotSide(batchNumber, (batchNumber * count + offset) % SNAPSHOT_ITEMS),
  );
}

function durableSide(batchNumber: number, itemId: string, price: number): SideSnapshot {
  return {
    game: 'cs2',
    itemId,
    market: 'skinport',
    side: 'ask',
    levels: [{ price, quantity: 1, orders: null }],
    listingCount: 1,
    totalQuantity: 1,
    fetchedAt: DURABILITY_T0 + batchNumber,
    ingestedAt: DURABILITY_T0 + batchNumber,
    sourceUpdatedAt: null,
    sourceTimeKind: null,
    originalCurrency: 'USD',
  };
}

function batchSides(batchNumber: number): SideSnapshot[] {
  return Array.from({ length: sidesPerBatch('plain') }, (_, index) =>
    durableSide(batchNumber, `batch-${batchNumber}-item-${index}`, 1000 + index),
  );
}

export const SALES_PER_BATCH = 50;

function batchSales(batchNumber: number): SaleRecord[] {
  return Array.from({ length: SALES_PER_BATCH }, (_, index) => ({
    game: 'cs2',
    itemId: `sold-${index}`,
    market: 'skinport',
    price: 1000 + index,
    quantity: 1,
    soldAt: DURABILITY_T0 + batchNumber,
    ingestedAt: DURABILITY_T0 + batchNumber,
    originalCurrency: 'USD',
  }));
}

async function writeForever(file: string, mode: string): Promise<void> {
  const snapshotting = mode === 'snapshotting';
  const store = createSqlitePriceStore({
    path: file,
    ...(snapshotting && {
      sideSnapshots: { minBytes: 0, onStep: (step) => process.stdout.write(`step ${step}\n`) },
    }),
  });
  await store.init();
  for (let batchNumber = 0; ; batchNumber++) {
    if (mode === 'sales') {
      await store.writeBatch({ sides: [], sales: batchSales(batchNumber), listings: [] });
    } else {
      const sides = snapshotting ? snapshottingSides(batchNumber) : batchSides(batchNumber);
      await store.writeBatch({ sides, sales: [], listings: [] });
    }
    if (mode === 'folding' && batchNumber % FOLD_EVERY === FOLD_EVERY - 1) {
      await store.flushRollups();
    }
    process.stdout.write(`${batchNumber}\n`);
    if (snapshotting) await new Promise(setImmediate);
  }
}

const file = process.argv[2];
if (file !== undefined && process.argv[1]?.endsWith('durability-child.ts')) {
  await writeForever(file, process.argv[3] ?? 'plain');
}
