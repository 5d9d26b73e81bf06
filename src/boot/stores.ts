/**
 * Picks the store implementations from the configuration, the one place that does: with a
 * DATABASE_URL the price store and the access store live in PostgreSQL (schema `pgSchema`),
 * shared by every process; without one, SQLite files under the data dir.
 */
import type { AlertStore } from '../access/alerts/alert-store.ts';
import { createPostgresAlertStore } from '../access/alerts/postgres-alert-store.ts';
import { createSqliteAlertStore } from '../access/alerts/sqlite-alert-store.ts';
import { createPostgresAccessStore } from '../access/postgres-access-store.ts';
import { createSqliteAccessStore } from '../access/sqlite-access-store.ts';
import type { AccessStore } from '../access/access-store.ts';
import type { Closers } from './closers.ts';
import { dataPaths, ensureDataDir } from './data-dir.ts';
import type { StoreConfig } from '../config.ts';
import type { Clock } from '../domain/clock.ts';
import type { HistoryStore } from '../store/history-store.ts';
import { warmPool } from '../store/postgres/driver.ts';
import { createPostgresPriceStore } from '../store/postgres/postgres-price-store.ts';
import type { PriceStore } from '../store/price-store.ts';
import type { InventoryStore } from '../store/inventory-store.ts';
import { createPostgresInventoryStore } from '../store/postgres/inventory-store.ts';
import { createSqliteInventoryStore } from '../store/sqlite/inventory-store.ts';
import {
  createSqlitePriceStore,
  type SqlitePriceStoreOptions,
} from '../store/sqlite/sqlite-price-store.ts';

export type StoreKind = 'sqlite' | 'postgres';

export interface OpenedPriceStore {
  kind: StoreKind;
  prices: PriceStore;
  /** History rollups: both stores serve them (null is kept for servers without history). */
  history: HistoryStore | null;
  /** Opens the pool's kept connections now (PostgreSQL; after init). */
  warm?: () => Promise<void>;
}

export function storeKind(config: StoreConfig): StoreKind {
  return config.databaseUrl === null ? 'sqlite' : 'postgres';
}

/** A log-safe description of where state lives (no credentials). */
export function describeStores(config: StoreConfig): string {
  if (config.databaseUrl === null) return `sqlite in ${dataPaths(config.dataDir).dir}`;
  let where = 'postgresql';
  try {
    const url = new URL(config.databaseUrl);
    where = `postgresql://${url.host}${url.pathname}`;
  } catch {
    // an unparsable URL is reported by the driver when it connects
  }
  return `${where} (schema ${config.pgSchema})`;
}

function postgresOptions(config: StoreConfig, clock: Clock) {
  return { connectionString: config.databaseUrl!, schema: config.pgSchema, clock };
}

/**
 * The ingest role's pool: every connection kept open (opened at boot by warmPool, so a standby
 * that takes over commits at once), and a commit waits up to INGEST_POOL_WAIT_MS for a free
 * connection: at a takeover every market's first poll commits at the same moment.
 */
export const INGEST_POOL_SIZE = 10;
export const INGEST_POOL_WAIT_MS = 15_000;
export const INGEST_POOL = {
  poolSize: INGEST_POOL_SIZE,
  minConnections: INGEST_POOL_SIZE,
  connectionTimeoutMillis: INGEST_POOL_WAIT_MS,
};

/**
 * How a store folds its rollup journal: where a store that ingests reports its failed folds,
 * and (SQLite only) whether a store opened beside a writer that ingests leaves a dead
 * process's journal entries to that writer instead of folding them at init.
 */
export type Folding = Pick<SqlitePriceStoreOptions, 'onFoldError' | 'foldLeftoversOnOpen'>;

/** Creates (does not init) the price store the configuration names. */
export function createPriceStore(
  config: StoreConfig,
  clock: Clock,
  folding: Folding = {},
  pool: Partial<typeof INGEST_POOL> = {},
): OpenedPriceStore {
  if (config.databaseUrl !== null) {
    const prices = createPostgresPriceStore({
      ...postgresOptions(config, clock),
      ...pool,
      ...(folding.onFoldError ? { onFoldError: folding.onFoldError } : {}),
    });
    const warm = () => warmPool(prices.pool, pool.minConnections ?? 0);
    return { kind: 'postgres', prices, history: prices, warm };
  }
  const paths = dataPaths(config.dataDir);
  ensureDataDir(paths);
  const store = createSqlitePriceStore({ path: paths.prices, clock, ...folding });
  return { kind: 'sqlite', prices: store, history: store };
}

/**
 * Opens the store an ingest loop writes through (both ingest roles): the ingest pool, failed
 * folds reported to `onFoldError`, initialised and its pool warm; `closers` closes it.
 */
export async function openIngestStore(
  config: StoreConfig,
  clock: Clock,
  onFoldError: (message: string) => void,
  closers: Closers,
): Promise<OpenedPriceStore> {
  const opened = createPriceStore(config, clock, { onFoldError }, INGEST_POOL);
  closers.add(() => opened.prices.close());
  await opened.prices.init();
  await opened.warm?.();
  return opened;
}

/** Creates (does not init) the access store the configuration names. */
export function createAccessStore(config: StoreConfig, clock: Clock): AccessStore {
  if (config.databaseUrl !== null) return createPostgresAccessStore(postgresOptions(config, clock));
  const paths = dataPaths(config.dataDir);
  ensureDataDir(paths);
  return createSqliteAccessStore({ path: paths.access });
}

/** Creates (does not init) the inventory snapshot store the configuration names. */
export function createAlertStore(config: StoreConfig, clock: Clock): AlertStore {
  if (config.databaseUrl !== null) return createPostgresAlertStore(postgresOptions(config, clock));
  const paths = dataPaths(config.dataDir);
  ensureDataDir(paths);
  return createSqliteAlertStore({ path: paths.alerts });
}

export function createInventoryStore(config: StoreConfig, clock: Clock): InventoryStore {
  if (config.databaseUrl !== null)
    return createPostgresInventoryStore(postgresOptions(config, clock));
  const paths = dataPaths(config.dataDir);
  ensureDataDir(paths);
  return createSqliteInventoryStore(paths.inventory);
}
