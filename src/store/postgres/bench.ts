/**
 * PostgreSQL ingest rate: observations per second through PostgresPriceStore.writeBatch, in
 * batches of 10k, in a throwaway schema that is dropped afterwards. Three phases: new sides
 * (first load), the same sides again with a newer fetchedAt (the steady state: every poll
 * rewrites existing keys), and new sales. One warm-up batch per phase is not counted.
 *
 * `benchPostgresIngest(url)` is what bench/ calls; running this file directly prints the
 * figures for DATABASE_URL.
 */
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { IngestBatch, SaleRecord, SideSnapshot } from '../../domain/quote.ts';
import { createPool } from './driver.ts';
import { createPostgresPriceStore } from './postgres-price-store.ts';
import type { PostgresPriceStore } from './postgres-price-store.ts';

export const BENCH_BATCH_SIZE = 10_000;
const MEASURED_BATCHES = 10;
const LEVELS_PER_SIDE = 5;
/** 2026-11-01T00:00:00Z: the bench's fixed clock and time base. */
const BASE_MS = 1_793_491_200_000;

export interface IngestPhase {
  observationsPerSecond: number;
  medianBatchMs: number;
}

export interface PostgresIngestBench {
  batchSize: number;
  batches: number;
  newSides: IngestPhase;
  rewrittenSides: IngestPhase;
  newSales: IngestPhase;
}

function benchSide(index: number, fetchedAt: number): SideSnapshot {
  return {
    game: 'cs2',
    itemId: `bench-item-${Math.floor(index / 2)}`,
    market: index % 4 < 2 ? 'skinport' : 'csfloat',
    side: index % 2 === 0 ? 'ask' : 'bid',
    levels: Array.from({ length: LEVELS_PER_SIDE }, (_, level) => ({
      price: 1000 + index + level * 7,
      quantity: 1 + level,
      orders: null,
    })),
    listingCount: LEVELS_PER_SIDE,
    totalQuantity: 15,
    fetchedAt,
    ingestedAt: fetchedAt + 50,
    sourceUpdatedAt: null,
    sourceTimeKind: null,
    originalCurrency: 'USD',
  };
}

function benchSale(index: number): SaleRecord {
  return {
    game: 'cs2',
    itemId: `bench-item-${index % 5000}`,
    market: 'csfloat',
    price: 1000 + (index % 977),
    quantity: 1,
    soldAt: BASE_MS + index * 250,
    ingestedAt: BASE_MS + index * 250 + 1000,
    originalCurrency: 'USD',
  };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

/** Writes warm-up + measured batches built by `batchAt(n)`; times only the measured ones. */
async function runPhase(
  store: PostgresPriceStore,
  batchAt: (batchNumber: number) => IngestBatch,
): Promise<IngestPhase> {
  await store.writeBatch(batchAt(0));
  const durations: number[] = [];
  for (let n = 1; n <= MEASURED_BATCHES; n++) {
    const batch = batchAt(n);
    const started = performance.now();
    await store.writeBatch(batch);
    durations.push(performance.now() - started);
  }
  const totalSeconds = durations.reduce((sum, ms) => sum + ms, 0) / 1000;
  return {
    observationsPerSecond: Math.round((MEASURED_BATCHES * BENCH_BATCH_SIZE) / totalSeconds),
    medianBatchMs: Math.round(median(durations) * 10) / 10,
  };
}

const range = (batchNumber: number) =>
  Array.from({ length: BENCH_BATCH_SIZE }, (_, i) => batchNumber * BENCH_BATCH_SIZE + i);

export async function benchPostgresIngest(connectionString: string): Promise<PostgresIngestBench> {
  const schema = `bench_${randomBytes(6).toString('hex')}`;
  const store = createPostgresPriceStore({
    connectionString,
    schema,
    clock: { now: () => BASE_MS },
  });
  try {
    await store.init();
    const sides = (fetchedAt: number) => (n: number) => ({
      sides: range(n).map((i) => benchSide(i, fetchedAt)),
      sales: [],
      listings: [],
    });
    const newSides = await runPhase(store, sides(BASE_MS));
    const rewrittenSides = await runPhase(store, sides(BASE_MS + 60_000));
    const newSales = await runPhase(store, (n) => ({
      sides: [],
      sales: range(n).map(benchSale),
      listings: [],
    }));
    return {
      batchSize: BENCH_BATCH_SIZE,
      batches: MEASURED_BATCHES,
      newSides,
      rewrittenSides,
      newSales,
    };
  } finally {
    await store.close();
    const admin = createPool({ connectionString, poolSize: 1 });
    await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`).finally(() => admin.end());
  }
}

if (process.argv[1]?.endsWith('postgres/bench.ts') && process.env.DATABASE_URL) {
  console.log(await benchPostgresIngest(process.env.DATABASE_URL));
}
