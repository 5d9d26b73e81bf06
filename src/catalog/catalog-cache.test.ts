import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildCatalogData } from './build-data.ts';
import {
  cachedCatalogBuild,
  catalogCacheKey,
  readCatalogCache,
  writeCatalogCache,
  type CatalogCache,
} from './catalog-cache.ts';
import type { CatalogData } from './catalog-data.ts';

function cacheIn(dir: string, key: string, warnings: string[] = []): CatalogCache {
  return { dir, key, warn: (message) => warnings.push(message) };
}

/** A build that counts its runs and answers `data`. */
function countingBuild(data: CatalogData) {
  let runs = 0;
  return {
    runs: () => runs,
    start: () => {
      runs += 1;
      return { wait: () => data };
    },
  };
}

const full = buildCatalogData();
const small: CatalogData = {
  items: { cs2: [], rust: full.items.rust.slice(0, 2) },
  cs2Registries: full.cs2Registries,
};

describe('catalog cache', () => {
  test('a hit answers data deep-equal to a fresh build, without building', () => {
    const dir = mkdtempSync(join(tmpdir(), 'catalog-cache-'));
    writeCatalogCache(cacheIn(dir, catalogCacheKey()), full);
    const build = countingBuild(small);
    const data = cachedCatalogBuild(cacheIn(dir, catalogCacheKey()), build.start).wait();
    assert.equal(build.runs(), 0);
    assert.deepEqual(data, buildCatalogData());
  });

  test('a missing file builds and writes the build for the next boot', () => {
    const dir = mkdtempSync(join(tmpdir(), 'catalog-cache-'));
    const build = countingBuild(small);
    assert.deepEqual(cachedCatalogBuild(cacheIn(dir, 'k1'), build.start).wait(), small);
    assert.equal(build.runs(), 1);
    assert.deepEqual(readCatalogCache(cacheIn(dir, 'k1')), small);
    assert.deepEqual(readdirSync(dir), ['catalog-k1.v8']);
  });

  test('another key rebuilds and replaces the stale file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'catalog-cache-'));
    writeCatalogCache(cacheIn(dir, 'old'), { ...small, items: { cs2: [], rust: [] } });
    const build = countingBuild(small);
    assert.deepEqual(cachedCatalogBuild(cacheIn(dir, 'new'), build.start).wait(), small);
    assert.equal(build.runs(), 1);
    assert.deepEqual(readdirSync(dir), ['catalog-new.v8']);
  });

  for (const [what, bytes] of [
    ['a truncated', Buffer.from([0xff, 0x0f, 0x6f])],
    ['a garbage', Buffer.from('not a catalog')],
    ['a wrong-shape', Buffer.from([0xff, 0x0f, 0x49, 0x02])],
  ] as const) {
    test(`${what} file warns, rebuilds and is rewritten`, () => {
      const dir = mkdtempSync(join(tmpdir(), 'catalog-cache-'));
      writeFileSync(join(dir, 'catalog-k.v8'), bytes);
      const warnings: string[] = [];
      const build = countingBuild(small);
      assert.deepEqual(cachedCatalogBuild(cacheIn(dir, 'k', warnings), build.start).wait(), small);
      assert.equal(build.runs(), 1);
      assert.equal(warnings.length, 1);
      assert.match(warnings.join('\n'), /catalog-k\.v8/);
      assert.deepEqual(readCatalogCache(cacheIn(dir, 'k')), small);
    });
  }

  test('an unwritable directory only warns', () => {
    const dir = mkdtempSync(join(tmpdir(), 'catalog-cache-'));
    writeFileSync(join(dir, 'file'), '');
    const warnings: string[] = [];
    writeCatalogCache(cacheIn(join(dir, 'file', 'below'), 'k', warnings), small);
    assert.equal(warnings.length, 1);
  });

  test('the key is stable within a checkout and names no path', () => {
    assert.equal(catalogCacheKey(), catalogCacheKey());
    assert.match(catalogCacheKey(), /^[0-9a-f]{20}$/);
  });
});
