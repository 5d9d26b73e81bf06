/**
 * Bundles the terminal's browser code (src/web/main.ts and its CSS, lightweight-charts from
 * node_modules) into dist/web with esbuild: content-hashed file names (served as immutable) and
 * a manifest naming them. Run by `npm install` (the package's `prepare` script) and, when the
 * output is missing, once at boot. The output is a pure function of the sources and the locked
 * packages, so it is not committed.
 */
import { build } from 'esbuild';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { packageRoot } from '../domain/package-root.ts';

const ROOT = packageRoot(import.meta.url);
export const WEB_SOURCE = join(ROOT, 'src', 'web');
export const WEB_DIST = join(ROOT, 'dist', 'web');

export interface WebManifest {
  script: string;
  style: string;
}

/**
 * Builds into a fresh sibling directory, then moves it into place: processes that boot at the
 * same time never read a half-written build. `replace` false keeps a build already in place.
 */
export async function buildWeb(
  outDir: string = WEB_DIST,
  { replace = true }: { replace?: boolean } = {},
): Promise<WebManifest> {
  const staging = `${outDir}.${process.pid}.${Date.now()}`;
  mkdirSync(dirname(outDir), { recursive: true });
  const manifest = await bundle(staging);
  if (replace) rmSync(outDir, { recursive: true, force: true });
  try {
    renameSync(staging, outDir);
    return manifest;
  } catch (error) {
    rmSync(staging, { recursive: true, force: true });
    const existing = existsSync(outDir) ? readManifest(outDir) : null;
    if (existing) return existing;
    throw error;
  }
}

async function bundle(outDir: string): Promise<WebManifest> {
  const result = await build({
    entryPoints: { terminal: join(WEB_SOURCE, 'main.ts') },
    bundle: true,
    minify: true,
    format: 'esm',
    target: 'es2020',
    entryNames: '[name]-[hash]',
    outdir: outDir,
    metafile: true,
    legalComments: 'eof',
    logLevel: 'warning',
  });
  const outputs = Object.entries(result.metafile.outputs);
  const script = outputs.find(([, output]) => output.entryPoint !== undefined);
  if (!script || !script[1].cssBundle) throw new Error('web build produced no script or style');
  const manifest = { script: basename(script[0]), style: basename(script[1].cssBundle) };
  writeFileSync(join(outDir, 'manifest.json'), `${JSON.stringify(manifest)}\n`);
  return manifest;
}

export function readManifest(outDir: string = WEB_DIST): WebManifest | null {
  try {
    return JSON.parse(readFileSync(join(outDir, 'manifest.json'), 'utf8')) as WebManifest;
  } catch {
    return null;
  }
}
