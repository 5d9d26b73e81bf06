import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { packageRoot } from './package-root.ts';

test('packageRoot answers the nearest folder above the module with a package.json', () => {
  const root = mkdtempSync(join(tmpdir(), 'package-root-'));
  try {
    writeFileSync(join(root, 'package.json'), '{}');
    mkdirSync(join(root, 'dist', 'server', 'b-1'), { recursive: true });
    mkdirSync(join(root, 'src', 'catalog'), { recursive: true });
    const at = (...parts: string[]) => pathToFileURL(join(root, ...parts)).href;
    assert.equal(packageRoot(at('src', 'catalog', 'catalog-cache.ts')), root);
    assert.equal(packageRoot(at('dist', 'server', 'b-1', 'chunk-A.mjs')), root);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('packageRoot of a module under no package.json throws', () => {
  assert.throws(() => packageRoot('file:///no-such-folder/x.ts'), /no package\.json above/);
});
