import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  adoptCatalogData,
  loadCatalogs,
  loadCs2Registries,
  prefetchCatalogs,
} from './load-catalogs.ts';

test('a prefetched build is the one loadCatalogs waits for, once per process', () => {
  prefetchCatalogs();
  prefetchCatalogs();
  const catalogs = loadCatalogs();
  assert.ok(catalogs.cs2.byName('AK-47 | Redline (Field-Tested)'));
  assert.ok(catalogs.rust.items.length > 0);
  assert.ok(Object.keys(loadCs2Registries().collections).length > 0);
  prefetchCatalogs();
  assert.equal(loadCatalogs(), catalogs);
  assert.throws(() =>
    adoptCatalogData({ items: { cs2: [], rust: [] }, cs2Registries: loadCs2Registries() }),
  );
});
