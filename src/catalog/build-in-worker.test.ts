import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { build } from 'esbuild';
import { buildCatalogData } from './build-data.ts';
import { buildCatalogDataInWorker } from './build-in-worker.ts';

const PACKAGE = '@ianlucas/cs2-lib';

/** Every module a thread loads statically from `entry` (type-only imports are erased). */
async function importsOf(entry: string): Promise<Set<string>> {
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    write: false,
    platform: 'node',
    format: 'esm',
    packages: 'external',
    metafile: true,
    logLevel: 'silent',
  });
  const paths = new Set<string>();
  for (const input of Object.values(result.metafile.inputs)) {
    for (const imported of input.imports) paths.add(imported.path);
  }
  return paths;
}

describe('catalog build thread', () => {
  test('hands over the same data an in-process build makes', () => {
    assert.deepEqual(buildCatalogDataInWorker(), buildCatalogData());
  });

  for (const entry of [
    'src/boot/ingest-thread/ingest-worker.ts',
    'src/boot/role-all.ts',
    'src/catalog/index.ts',
  ]) {
    test(`${entry} does not import the item-data package`, async () => {
      assert.equal((await importsOf(entry)).has(PACKAGE), false);
    });
  }

  test('the build module does (the check above can see it)', async () => {
    assert.equal((await importsOf('src/catalog/build-data.ts')).has(PACKAGE), true);
  });
});
