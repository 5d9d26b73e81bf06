/**
 * The built catalog data kept on disk in V8's serialization (the format a structured clone
 * uses), so a boot whose catalog sources did not change skips the build (about 5 s of CPU).
 * The file name carries a key over everything the build reads; a missing, stale or unreadable
 * file means "build", and the fresh build is written back atomically (temp file + rename).
 */
import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { deserialize, serialize } from 'node:v8';
import { packageRoot } from '../domain/package-root.ts';
import type { CatalogData } from './catalog-data.ts';

/** Bump when the cached shape changes in a way the source hash cannot show. */
const FORMAT_VERSION = 1;
const PREFIX = 'catalog-';
const SUFFIX = '.v8';
const SRC = join(packageRoot(import.meta.url), 'src');
/** The folders the build imports from (the folder order keeps it inside these two). */
const BUILD_SOURCES = ['catalog', 'domain'];
/** The item-data packages the build reads. */
const SOURCE_PACKAGES = ['@ianlucas/cs2-lib'];

export interface CatalogCache {
  dir: string;
  key: string;
  warn(message: string): void;
}

export interface PendingCatalogData {
  wait(): CatalogData;
}

function packageVersion(name: string): string {
  for (let dir = SRC; dir !== dirname(dir); dir = dirname(dir)) {
    const manifest = join(dir, 'node_modules', name, 'package.json');
    if (existsSync(manifest))
      return (JSON.parse(readFileSync(manifest, 'utf8')) as { version: string }).version;
  }
  return 'missing';
}

function hashBuildSources(hash: ReturnType<typeof createHash>): void {
  for (const folder of BUILD_SOURCES) {
    const root = join(SRC, folder);
    const files = readdirSync(root, { recursive: true, encoding: 'utf8' })
      .filter((file) => /\.(ts|mjs|json)$/.test(file) && !file.endsWith('.test.ts'))
      .sort();
    for (const file of files) {
      hash.update(`${relative(SRC, join(root, file))}\0`).update(readFileSync(join(root, file)));
    }
  }
}

let currentKey: string | undefined;

/** The key of this checkout's build: format, Node, the source packages and the builder's files. */
export function catalogCacheKey(): string {
  if (currentKey) return currentKey;
  const hash = createHash('sha256').update(`${FORMAT_VERSION}\0${process.versions.v8}\0`);
  for (const name of SOURCE_PACKAGES) hash.update(`${name}@${packageVersion(name)}\0`);
  hashBuildSources(hash);
  currentKey = hash.digest('hex').slice(0, 20);
  return currentKey;
}

/** The file holding the data of the cache's key. */
export function catalogCachePath(cache: Pick<CatalogCache, 'dir' | 'key'>): string {
  return join(cache.dir, `${PREFIX}${cache.key}${SUFFIX}`);
}

function isCatalogData(value: unknown): value is CatalogData {
  const data = value as Partial<CatalogData> | null;
  return (
    typeof data === 'object' &&
    data !== null &&
    Array.isArray(data.items?.cs2) &&
    Array.isArray(data.items?.rust) &&
    typeof data.cs2Registries === 'object' &&
    data.cs2Registries !== null
  );
}

/** The cached data under the cache's key, or undefined (with a warning if the file is bad). */
export function readCatalogCache(cache: CatalogCache): CatalogData | undefined {
  const path = catalogCachePath(cache);
  if (!existsSync(path)) return undefined;
  try {
    const data: unknown = deserialize(readFileSync(path));
    if (isCatalogData(data)) return data;
    cache.warn(`catalog cache ${path} holds no catalog data; building the catalogs`);
  } catch (error) {
    cache.warn(`catalog cache ${path} is unreadable (${String(error)}); building the catalogs`);
  }
  return undefined;
}

function removeStaleFiles(cache: CatalogCache): void {
  const keep = `${PREFIX}${cache.key}${SUFFIX}`;
  for (const name of readdirSync(cache.dir)) {
    if (name.startsWith(PREFIX) && name.endsWith(SUFFIX) && name !== keep) {
      rmSync(join(cache.dir, name), { force: true });
    }
  }
}

/** Writes `data` under the cache's key and drops files of other keys; failures only warn. */
export function writeCatalogCache(cache: CatalogCache, data: CatalogData): void {
  const path = catalogCachePath(cache);
  const temporary = `${path}.${process.pid}.tmp`;
  try {
    mkdirSync(cache.dir, { recursive: true });
    writeFileSync(temporary, serialize(data));
    renameSync(temporary, path);
    removeStaleFiles(cache);
  } catch (error) {
    try {
      rmSync(temporary, { force: true });
    } catch {
      // the directory itself is unusable: nothing was written
    }
    cache.warn(`catalog cache ${path} not written (${String(error)})`);
  }
}

/** Answers from the cache when it holds this key's data, else from `build`, then writes it. */
export function cachedCatalogBuild(
  cache: CatalogCache,
  startBuild: () => PendingCatalogData,
): PendingCatalogData {
  const cached = readCatalogCache(cache);
  if (cached) return { wait: () => cached };
  const build = startBuild();
  return {
    wait() {
      const data = build.wait();
      writeCatalogCache(cache, data);
      return data;
    },
  };
}
