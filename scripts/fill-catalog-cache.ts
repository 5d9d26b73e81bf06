/**
 * Fills a test run's catalog cache (PRICING_CATALOG_CACHE_DIR, set by scripts/run-tests.mjs)
 * before the test files start, so that the servers and test processes starting together read
 * the built catalogs instead of each building them (about 5 s of CPU a build). A cache that
 * holds this checkout's key already is left as it is, unread.
 */
import { existsSync } from 'node:fs';
import { buildCatalogDataInWorker } from '../src/catalog/build-in-worker.ts';
import {
  catalogCacheKey,
  catalogCachePath,
  writeCatalogCache,
} from '../src/catalog/catalog-cache.ts';

const dir = process.env.PRICING_CATALOG_CACHE_DIR;
if (!dir) throw new Error('PRICING_CATALOG_CACHE_DIR is not set');
const cache = { dir, key: catalogCacheKey(), warn: (message: string) => console.error(message) };
if (!existsSync(catalogCachePath(cache))) writeCatalogCache(cache, buildCatalogDataInWorker());
