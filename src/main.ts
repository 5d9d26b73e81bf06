/**
 * Composition root: config → role → stores → book → ingest and/or HTTP. The only place that
 * picks a role; src/boot/ picks implementations from the configuration (stores.ts: SQLite or
 * PostgreSQL; quotas.ts: memory or Redis limiters) and wires each role:
 *  - `all` (role-all.ts): one process, ingest on a worker thread, HTTP on the main thread;
 *  - `api` (role-api.ts): HTTP from a book kept current by the Redis change stream;
 *  - `ingest` (role-ingest.ts): leased market polling, store writes, change publishing.
 */
import pino from 'pino';
import { startAllRole } from './boot/role-all.ts';
import { startApiRole } from './boot/role-api.ts';
import { startIngestRole } from './boot/role-ingest.ts';
import { assertPortFree } from './boot/port-probe.ts';
import { describeStores } from './boot/stores.ts';
import { EXAMPLE_ITEMS } from './boot/backfill.ts';
import { useCatalogCache, useCatalogCut } from './catalog/index.ts';
import type { Role, ServeConfig } from './config.ts';
import { systemClock, type Clock } from './domain/clock.ts';

export interface Service {
  role: Role;
  /** null for the ingest role, which serves no HTTP. */
  url: string | null;
  demoKey: string | null;
  /** The ingest role's lease owner id (`<host>:<pid>:<random>`), else null. */
  leaseOwner: string | null;
  /** The operator metrics URL (`--metrics-port`), else null. */
  metricsUrl: string | null;
  close(): Promise<void>;
}

export async function startService(
  config: ServeConfig,
  clock: Clock = systemClock,
): Promise<Service> {
  const logger = pino({ level: config.logLevel });
  logger.info(
    {
      role: config.role,
      stores: describeStores(config),
      quotas: config.redisUrl ? 'redis' : 'memory',
    },
    'starting',
  );
  useCatalogCache({
    dir: config.catalogCacheDir ?? config.dataDir,
    warn: (message) => logger.warn(message),
  });
  useCatalogCut({ items: config.catalogItems, keepNames: EXAMPLE_ITEMS });
  const { role } = config;
  if (role === 'ingest') {
    const ingest = await startIngestRole(config, clock, logger);
    const { owner: leaseOwner, metricsUrl, close } = ingest;
    return { role, url: null, demoKey: null, leaseOwner, metricsUrl, close };
  }
  await assertPortFree(config.host, config.port);
  const start = role === 'api' ? startApiRole : startAllRole;
  const http = await start(config, clock, logger);
  const { url, demoKey, metricsUrl, close } = http;
  return { role, url, demoKey, leaseOwner: null, metricsUrl, close };
}
