/**
 * Wiring of the item schema into a process. A serving process (roles `all` and `api`) gets the
 * schema service (its first build runs in the background; the routes answer 503 until it is
 * done), the store poll that brings in other processes' changes every second, the game read
 * switch polled every 250 ms, and catalogs that grow with learned items. An ingesting process
 * gets the learner and catalogs that grow as it learns.
 */
import { loadCatalogs, loadCs2Registries } from '../catalog/index.ts';
import type { SluggedCatalog } from '../catalog/create-catalog.ts';
import type { StoreConfig } from '../config.ts';
import type { Clock } from '../domain/clock.ts';
import { limitPerCause } from '../domain/log-limiter.ts';
import type { Game } from '../domain/games.ts';
import { PolledGameReads } from '../schema/game-reads.ts';
import { growingCatalog, type GrowingCatalog } from '../schema/growing-catalog.ts';
import { CatalogLearner } from '../schema/learner.ts';
import { createSchemaStore } from './open-schema-store.ts';
import { cs2SchemaRegistries, EMPTY_REGISTRIES } from '../schema/registries.ts';
import { SchemaService } from '../schema/schema-service.ts';

export const SCHEMA_REFRESH_MS = 1000;

interface BootOptions {
  config: StoreConfig;
  clock: Clock;
  catalogs: Readonly<Record<Game, SluggedCatalog>>;
  onError: (error: unknown, what: string) => void;
}

export interface SchemaRuntime {
  service: SchemaService;
  gameReads: PolledGameReads;
  catalogs: Record<Game, GrowingCatalog>;
  learner: CatalogLearner;
  /**
   * Syncs the logs with the package catalog (a restart's, after it listens), builds the
   * snapshots and polls for other processes' changes; errors go to onError.
   */
  serve(): void;
  /**
   * What a serving process awaits before it listens (or that failed): the logs loaded, and on a
   * first start their sync with the package catalog too (its one long write).
   */
  beforeListen: Promise<void>;
  close(): Promise<void>;
}

function growAll(catalogs: BootOptions['catalogs']): Record<Game, GrowingCatalog> {
  return { cs2: growingCatalog(catalogs.cs2), rust: growingCatalog(catalogs.rust) };
}

async function openRuntime(options: BootOptions) {
  const store = createSchemaStore(options.config, options.clock);
  await store.init();
  const catalogs = growAll(options.catalogs);
  const service = new SchemaService({
    store,
    clock: options.clock,
    sources: {
      cs2: {
        items: options.catalogs.cs2.items,
        registries: cs2SchemaRegistries(loadCs2Registries()),
      },
      rust: { items: options.catalogs.rust.items, registries: EMPTY_REGISTRIES },
    },
    onLearned: (game, records) => void catalogs[game].learn(records),
  });
  const learner = new CatalogLearner(service, (error) =>
    options.onError(error, 'learning an item'),
  );
  return { store, catalogs, service, learner };
}

export async function startSchemaServing(options: BootOptions): Promise<SchemaRuntime> {
  const { store, catalogs, service, learner } = await openRuntime(options);
  const gameReads = new PolledGameReads(store);
  await gameReads.refreshNow();
  gameReads.start(undefined, (error) => options.onError(error, 'reading the game switch'));
  let ready: Promise<void> = Promise.resolve();
  return {
    service,
    gameReads,
    catalogs,
    learner,
    beforeListen: service
      .loadLogs()
      .then((firstStart) => (firstStart ? service.syncSources() : undefined))
      .catch(() => undefined),
    serve() {
      ready = service.start().then(
        () =>
          service.startRefresh(SCHEMA_REFRESH_MS, (error) =>
            options.onError(error, 'schema refresh'),
          ),
        (error: unknown) => options.onError(error, 'building the item schema'),
      );
    },
    async close() {
      gameReads.stop();
      await ready;
      service.stop();
      await store.close();
    },
  };
}

/** For an ingesting process: loaded logs, the learner, catalogs that grow as it learns. */
export async function startLearning(options: BootOptions): Promise<SchemaRuntime> {
  const { store, catalogs, service, learner } = await openRuntime(options);
  await service.loadLogs();
  service.startRefresh(SCHEMA_REFRESH_MS, (error) => options.onError(error, 'schema refresh'));
  const gameReads = new PolledGameReads(store);
  return {
    service,
    gameReads,
    catalogs,
    learner,
    beforeListen: Promise.resolve(),
    serve() {},
    async close() {
      service.stop();
      await store.close();
    },
  };
}

/**
 * The learning runtime of an ingest process when it reads live markets (the naming authority's
 * new names grow the catalog there); null for the simulator and imports.
 */
export async function startLearningWhenLive(
  config: StoreConfig & { source: string },
  clock: Clock,
  logger: { error(fields: object, message: string): void },
): Promise<SchemaRuntime | null> {
  if (config.source !== 'live') return null;
  return startLearning({
    config,
    clock,
    catalogs: loadCatalogs(),
    onError: schemaErrorLog(logger, clock),
  });
}

/**
 * The item schema's failures at error level, each cause (what failed) at most once a minute:
 * its polls repeat every 250 ms while the store is down.
 */
export function schemaErrorLog(
  logger: { error(fields: object, message: string): void },
  clock: Clock,
): (error: unknown, what: string) => void {
  const log = limitPerCause((fields, message) => logger.error(fields, message), { clock });
  return (error, what) => log({ err: error }, `item schema: ${what} failed`);
}
