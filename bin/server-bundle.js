/**
 * The server bundle: src/cli.ts and the two worker-thread entries bundled by esbuild into
 * dist/server/<build>/ (ES modules, packages left to node_modules, shared chunks), so a start
 * loads plain JavaScript instead of compiling TypeScript through tsx.
 *
 * dist/server/current.json names the build in use and the size and mtime of every file it was
 * made from (esbuild's metafile inputs, plus tsconfig.json and this file). A start reuses that
 * build when none of them changed and builds a new one otherwise, so an edit to src/ always
 * runs. A build goes into its own directory and becomes current by a rename of the pointer
 * file: concurrent starts never see a half-written build, and a running process keeps the
 * directory it started from (its workers load from it later) and marks it in use every 10
 * minutes. Builds no process used for an hour are removed when a new one is made.
 *
 * The worker entries keep their names (bootstrap.mjs, build-worker.mjs) beside the chunks, so
 * `new URL('./bootstrap.mjs', import.meta.url)` finds the bundled entry from bundled code and
 * the source entry from the sources. Inside the bundle `tsx/esm/api` is a module whose
 * register() does nothing: there is no TypeScript left to load.
 */
import {
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { join, relative } from 'node:path';
import { setInterval } from 'node:timers';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** Bump when the output changes in a way the stamped files cannot show. */
const FORMAT = 1;
const POINTER = 'current.json';
/** A build no process used for this long is removed when another build is made. */
const UNUSED_MS = 3_600_000;
/** How often a running process marks its build as in use. */
const IN_USE_MS = 600_000;
/**
 * An input written this close to the build's start (or after it) may have changed while
 * esbuild read it: the stamp marks it unknown, so the next start builds again.
 */
const WRITE_RACE_MS = 100;
const BUILD_NAME = /^b-[0-9a-z]+-\d+$/;

export const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BUILDER = fileURLToPath(import.meta.url);

/** Output name (without .mjs) → entry module, relative to the root. */
export const SERVER_ENTRIES = {
  cli: 'src/cli.ts',
  bootstrap: 'src/boot/ingest-thread/bootstrap.mjs',
  'build-worker': 'src/catalog/build-worker.mjs',
};

/**
 * @typedef {object} BundleOptions
 * @property {string} [root] the project root the entries and stamped paths are relative to
 * @property {string} [outDir] where the builds and the pointer live
 * @property {Record<string, string>} [entries] output name → entry module
 * @property {string} [main] the entry a caller imports
 */

/** @param {BundleOptions} options */
function settings(options) {
  const root = options.root ?? ROOT;
  return {
    root,
    outDir: options.outDir ?? join(root, 'dist', 'server'),
    entries: options.entries ?? SERVER_ENTRIES,
    main: options.main ?? 'cli',
  };
}

/** @returns {[string, number, number]} path, size, mtime in ms (-1, -1 when there is no file) */
function stampOf(root, path) {
  try {
    const stat = statSync(join(root, path));
    return [path, stat.size, stat.mtimeMs];
  } catch {
    return [path, -1, -1];
  }
}

function readPointer(outDir) {
  try {
    return JSON.parse(readFileSync(join(outDir, POINTER), 'utf8'));
  } catch {
    return null;
  }
}

/** The build named by the pointer when it is of this format and every stamped file is unchanged. */
function currentBuild(root, outDir) {
  const pointer = readPointer(outDir);
  if (pointer?.format !== FORMAT || !BUILD_NAME.test(pointer.build ?? '')) return null;
  if (!Array.isArray(pointer.inputs)) return null;
  for (const [path, size, mtime] of pointer.inputs) {
    const [, nowSize, nowMtime] = stampOf(root, path);
    if (mtime === null || nowSize !== size || nowMtime !== mtime) return null;
  }
  const dir = join(outDir, pointer.build);
  return markInUse(dir) ? dir : null;
}

/** Sets the build directory's mtime to now; false when it is gone. */
function markInUse(dir) {
  try {
    const now = new Date();
    utimesSync(dir, now, now);
    return true;
  } catch {
    return false;
  }
}

/** Inside the bundle, `tsx/esm/api` registers nothing: its code is JavaScript already. */
const noTypeScriptLoader = {
  name: 'no-typescript-loader',
  setup(build) {
    build.onResolve({ filter: /^tsx\/esm\/api$/ }, () => ({ path: 'tsx', namespace: 'no-loader' }));
    build.onLoad({ filter: /.*/, namespace: 'no-loader' }, () => ({
      contents: 'export function register() {}',
      loader: 'js',
    }));
  },
};

async function bundleInto(dir, { root, entries }) {
  const esbuild = await import('esbuild');
  try {
    const result = await esbuild.build({
      absWorkingDir: root,
      entryPoints: entries,
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20.6',
      packages: 'external',
      splitting: true,
      outdir: dir,
      outExtension: { '.js': '.mjs' },
      entryNames: '[name]',
      chunkNames: 'chunk-[hash]',
      sourcemap: true,
      metafile: true,
      plugins: [noTypeScriptLoader],
      logLevel: 'silent',
    });
    return Object.keys(result.metafile.inputs).filter((path) => !path.includes(':'));
  } finally {
    // The esbuild service would otherwise idle beside a long-running server.
    await esbuild.stop();
  }
}

/**
 * The stamp of every input, an mtime of null where the bundle may not hold the file as it is:
 * written as the build started, or gone since esbuild read it. Extra files may be missing.
 */
function stampInputs(root, inputs, startedMs) {
  const extra = ['tsconfig.json', relative(root, BUILDER)];
  const stamps = [...inputs.map((path) => [path, true]), ...extra.map((path) => [path, false])];
  return stamps.map(([path, read]) => {
    const [, size, mtime] = stampOf(root, path);
    const unknown = mtime > startedMs - WRITE_RACE_MS || (read && size === -1);
    return [path, size, unknown ? null : mtime];
  });
}

function removeUnused(outDir, keep) {
  const cutoff = Date.now() - UNUSED_MS;
  for (const name of readdirSync(outDir)) {
    if (name === keep || name === POINTER) continue;
    const path = join(outDir, name);
    try {
      if (statSync(path).mtimeMs < cutoff) rmSync(path, { recursive: true, force: true });
    } catch {
      // another start removed it first
    }
  }
}

/** Builds a new bundle, makes it current and answers its directory. */
export async function buildServerBundle(options = {}) {
  const { root, outDir, entries } = settings(options);
  const build = `b-${Date.now().toString(36)}-${process.pid}`;
  const dir = join(outDir, build);
  mkdirSync(outDir, { recursive: true });
  const startedMs = Date.now();
  try {
    const inputs = await bundleInto(dir, { root, entries });
    const pointer = { format: FORMAT, build, inputs: stampInputs(root, inputs, startedMs) };
    const staging = join(outDir, `${POINTER}.${build}`);
    writeFileSync(staging, JSON.stringify(pointer));
    renameSync(staging, join(outDir, POINTER));
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  removeUnused(outDir, build);
  return dir;
}

/**
 * Keeps the build of `url` from removal while this process runs (a long-running server's
 * workers may load from it again); the timer does not hold the process open.
 */
export function holdBuild(url) {
  const dir = fileURLToPath(new URL('.', url));
  setInterval(() => markInUse(dir), IN_USE_MS).unref();
}

/**
 * The file URL of the bundle's main entry, built first when missing or stale; `built` tells
 * which. Throws when esbuild fails (a syntax error in src/, an unwritable dist/).
 * @param {BundleOptions} [options]
 */
export async function ensureServerBundle(options = {}) {
  const resolved = settings(options);
  let dir = currentBuild(resolved.root, resolved.outDir);
  const built = dir === null;
  if (dir === null) dir = await buildServerBundle(resolved);
  return { url: pathToFileURL(join(dir, `${resolved.main}.mjs`)).href, built };
}
