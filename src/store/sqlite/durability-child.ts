/**
 * Writer process for the durability test: commits numbered batches to the store at argv[2]
 * forever, printing each batch number on stdout only after writeBatch has resolved. With
 * argv[3] = 'folding' it also folds its rollup journal every FOLD_EVERY batches.
 * Batch k holds sidesPerBatch(mode) sides whose fetchedAt is DURABILITY_T0 + k. With argv[3] =
 * 'snapshotting' the batches rewrite a fixed set of SNAPSHOT_ITEMS items (snapshotSide) and the
 * store snapshots its latest sides whenever it can, printing `step <name>` after each step.
 * With argv[3] = 'live' the batches hold listings and sales statistics only (liveListing,
 * liveStats), every PRUNE_EVERY-th batch is followed by a prune of the listings, and the
 * store snapshots its listings and statistics log whenever it can. With argv[3] = 'sales'
 * batch k holds SALES_PER_BATCH sales sold at DURABILITY_T0 + k instead. With argv[3] =
 * 'attributes' call k records the attribute observations attributeCall(k) instead of a batch.
 */
import type {
  ListingRecord,
  SaleRecord,
  SalesStatsRecord,
  SideSnapshot,
} from '../../domain/quote.ts';
import type { BucketObservation } from '../bucket-history.ts';
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

/** Listing ids the live writer cycles through, LIVE_PER_BATCH a batch. */
export const LIVE_IDS = 400;
const LIVE_PER_BATCH = 50;
export const PRUNE_EVERY = 5;

/** Listing `j` of batch k: a new price every batch. */
export function liveListing(batchNumber: number, j: number): ListingRecord {
  const id = (batchNumber * LIVE_PER_BATCH + j) % LIVE_IDS;
  return {
    game: 'cs2',
    itemId: `item-${id % 10}`,
    market: 'csfloat',
    listingId: `L${id}`,
    price: 1000 + batchNumber,
    floatValue: id / LIVE_IDS,
    paintSeed: id,
    paintIndex: null,
    phase: null,
    inspectLink: null,
    stickers: id % 3 === 0 ? ['Sticker | Crown (Foil)'] : [],
    isStatTrak: id % 2 === 0,
    fetchedAt: DURABILITY_T0 + batchNumber,
    ingestedAt: DURABILITY_T0 + batchNumber,
    originalCurrency: 'USD',
  };
}

/** Statistics of item `j` in batch k: the volume moves every fourth batch only. */
export function liveStats(batchNumber: number, j: number): SalesStatsRecord {
  const volume = Math.floor(batchNumber / 4) + j;
  return {
    game: 'cs2',
    market: 'skinport',
    itemId: `item-${j}`,
    window: '24h',
    volume,
    minPrice: 100,
    maxPrice: 100 + volume,
    avgPrice: null,
    medianPrice: 100,
    fetchedAt: DURABILITY_T0 + batchNumber,
    ingestedAt: DURABILITY_T0 + batchNumber,
    originalCurrency: 'EUR',
  };
}

/** After batch k (every PRUNE_EVERY-th): listings fetched before this go. */
export function livePruneBefore(batchNumber: number): number {
  return DURABILITY_T0 + batchNumber - 3;
}

/** Attribute bucket ids the attributes writer observes, all in every call. */
export const ATTRIBUTE_IDS = 8;

/** Call k's observations: 3 minutes after call k-1, so buckets of every tier close as it runs. */
export function attributeCall(callNumber: number): BucketObservation[] {
  return Array.from({ length: ATTRIBUTE_IDS }, (_, j) => ({
    bucketId: `bucket-${j}`,
    at: DURABILITY_T0 + callNumber * 3 * 60_000,
    askCents: 1000 + ((callNumber * 7 + j) % 50),
    bidCents: j % 2 === 0 ? 900 : null,
    askListingCount: 1 + (callNumber % 5),
    bidOrderCount: j % 2 === 0 ? 3 : null,
  }));
}

const live = (batchNumber: number) => ({
  sides: [],
  sales: [],
  listings: Array.from({ length: LIVE_PER_BATCH }, (_, j) => liveListing(batchNumber, j)),
  salesStats: Array.from({ length: 20 }, (_, j) => liveStats(batchNumber, j)),
});

async function writeForever(file: string, mode: string): Promise<void> {
  const snapshotting = mode === 'snapshotting';
  const store = createSqlitePriceStore({
    path: file,
    ...(snapshotting && {
      sideSnapshots: { minBytes: 0, onStep: (step) => process.stdout.write(`step ${step}\n`) },
    }),
    ...(mode === 'live' && { liveSnapshots: { minBytes: 0 } }),
  });
  await store.init();
  for (let batchNumber = 0; ; batchNumber++) {
    if (mode === 'attributes') {
      await store.recordBucketObservations(attributeCall(batchNumber));
      process.stdout.write(`${batchNumber}\n`);
      await new Promise(setImmediate);
      continue;
    }
    if (mode === 'live') {
      await store.writeBatch(live(batchNumber));
      if (batchNumber % PRUNE_EVERY === PRUNE_EVERY - 1) {
        await store.pruneListings('cs2', 'csfloat', livePruneBefore(batchNumber));
      }
      process.stdout.write(`${batchNumber}\n`);
      await new Promise(setImmediate);
      continue;
    }
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
