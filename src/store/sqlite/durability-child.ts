/**
 * Writer process for the durability test: commits numbered batches to the store at argv[2]
 * forever, printing each batch number on stdout only after writeBatch has resolved. With
 * argv[3] = 'folding' it also folds its rollup journal every FOLD_EVERY batches.
 * Batch k holds SIDES_PER_BATCH sides whose fetchedAt is DURABILITY_T0 + k.
 */
import type { SideSnapshot } from '../../domain/quote.ts';
import { createSqlitePriceStore } from './sqlite-price-store.ts';

export const SIDES_PER_BATCH = 2000;
export const DURABILITY_T0 = 1_793_491_200_000;
const FOLD_EVERY = 12;

function batchSides(batchNumber: number): SideSnapshot[] {
  return Array.from({ length: SIDES_PER_BATCH }, (_, index) => ({
    game: 'cs2',
    itemId: `batch-${batchNumber}-item-${index}`,
    market: 'skinport',
    side: 'ask',
    levels: [{ price: 1000 + index, quantity: 1, orders: null }],
    listingCount: 1,
    totalQuantity: 1,
    fetchedAt: DURABILITY_T0 + batchNumber,
    ingestedAt: DURABILITY_T0 + batchNumber,
    sourceUpdatedAt: null,
    sourceTimeKind: null,
    originalCurrency: 'USD',
  }));
}

async function writeForever(file: string, folding: boolean): Promise<void> {
  const store = createSqlitePriceStore({ path: file });
  await store.init();
  for (let batchNumber = 0; ; batchNumber++) {
    await store.writeBatch({ sides: batchSides(batchNumber), sales: [], listings: [] });
    if (folding && batchNumber % FOLD_EVERY === FOLD_EVERY - 1) await store.flushRollups();
    process.stdout.write(`${batchNumber}\n`);
  }
}

const file = process.argv[2];
if (file !== undefined && process.argv[1]?.endsWith('durability-child.ts')) {
  await writeForever(file, process.argv[3] === 'folding');
}
