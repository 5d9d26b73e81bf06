/**
 * The server bundle (bin/server-bundle.js) on a small project of its own in a temp dir: reused
 * while its sources are unchanged, rebuilt when one changes (same size, other mtime) or was
 * written as a build started, left valid by builders racing each other, and cleared of builds
 * no start used for an hour. The real bundle is what every end-to-end file here starts.
 */
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { setTimeout as delay } from 'node:timers/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const BUILDER = pathToFileURL(join(import.meta.dirname, '..', 'bin', 'server-bundle.js')).href;

interface BundleOptions {
  root: string;
  entries: Record<string, string>;
  main: string;
}
interface Builder {
  ensureServerBundle(options: BundleOptions): Promise<{ url: string; built: boolean }>;
}

const { ensureServerBundle } = (await import(BUILDER)) as Builder;

const HOUR_AGO = (Date.now() - 3_600_000) / 1000;
const roots: string[] = [];
after(() => roots.forEach((root) => rmSync(root, { recursive: true, force: true })));

/** A project whose `cli` says the word of src/word.ts; its files written an hour ago. */
function project(word: string) {
  const root = mkdtempSync(join(tmpdir(), 'server-bundle-'));
  roots.push(root);
  mkdirSync(join(root, 'src'));
  writeFileSync(join(root, 'package.json'), '{"type":"module"}\n');
  writeFileSync(
    join(root, 'src', 'cli.ts'),
    "import { word } from './word.ts';\nexport const said: string = word;\n",
  );
  writeFileSync(
    join(root, 'src', 'worker.mjs'),
    "import { register } from 'tsx/esm/api';\nregister();\nexport const ready = true;\n",
  );
  const options = {
    root,
    entries: { cli: 'src/cli.ts', worker: 'src/worker.mjs' },
    main: 'cli',
  };
  const setWord = (next: string, seconds = HOUR_AGO) => {
    const path = join(root, 'src', 'word.ts');
    writeFileSync(path, `export const word = '${next}';\n`);
    utimesSync(path, seconds, seconds);
  };
  setWord(word);
  for (const file of ['package.json', 'src/cli.ts', 'src/worker.mjs']) {
    utimesSync(join(root, file), HOUR_AGO, HOUR_AGO);
  }
  return { root, options, setWord, outDir: join(root, 'dist', 'server') };
}

async function said(url: string): Promise<string> {
  return ((await import(url)) as { said: string }).said;
}

/** Runs `ensureServerBundle` and the bundle in another process; answers what it said. */
function saidInChild(options: BundleOptions): Promise<string> {
  const script =
    `const { ensureServerBundle } = await import(${JSON.stringify(BUILDER)});` +
    `const { url } = await ensureServerBundle(${JSON.stringify(options)});` +
    'console.log((await import(url)).said);';
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0 ? resolve(output.trim()) : reject(new Error(`builder exited ${code}`)),
    );
  });
}

describe('server bundle', () => {
  test('is reused while the sources are unchanged and rebuilt when one changes', async () => {
    const { options, setWord } = project('one');
    const first = await ensureServerBundle(options);
    assert.equal(first.built, true);
    assert.equal(await said(first.url), 'one');

    const again = await ensureServerBundle(options);
    assert.deepEqual(again, { url: first.url, built: false });

    setWord('two', HOUR_AGO + 60);
    const changed = await ensureServerBundle(options);
    assert.equal(changed.built, true);
    assert.notEqual(changed.url, first.url);
    assert.equal(await said(changed.url), 'two');
    assert.equal(await said(first.url), 'one', 'the first build stays for whoever runs it');
  });

  test('a source written as the build starts is built again by the next start', async () => {
    const { options, setWord } = project('one');
    // Stamped a second on: it falls in the build's write race (from 100 ms before the build's
    // start on) even if the build starts a second late. Stamped now, a build started more than
    // 100 ms later (a starved machine) would have trusted the file.
    const writtenAt = Date.now() + 1_000;
    setWord('new', writtenAt / 1000);
    assert.equal((await ensureServerBundle(options)).built, true);
    // Past the race window, so the next build can trust the file as it is.
    await delay(Math.max(0, writtenAt + 200 - Date.now()));
    const next = await ensureServerBundle(options);
    assert.equal(next.built, true);
    assert.equal((await ensureServerBundle(options)).built, false);
    assert.equal(await said(next.url), 'new');
  });

  test('the workers run without the TypeScript loader', async () => {
    const { options } = project('one');
    const { url } = await ensureServerBundle(options);
    const worker = readFileSync(join(dirname(fileURLToPath(url)), 'worker.mjs'), 'utf8');
    assert.doesNotMatch(worker, /from\s*["']tsx/);
    const loaded = (await import(new URL('./worker.mjs', url).href)) as { ready: boolean };
    assert.equal(loaded.ready, true);
  });

  test('starts racing on a stale bundle all run it and leave a valid one', async () => {
    const { options, setWord } = project('one');
    await ensureServerBundle(options);
    setWord('raced', HOUR_AGO + 120);
    const words = await Promise.all([1, 2, 3].map(() => saidInChild(options)));
    assert.deepEqual(words, ['raced', 'raced', 'raced']);
    const after = await ensureServerBundle(options);
    assert.equal(after.built, false);
    assert.equal(await said(after.url), 'raced');
  });

  test('a new build removes the builds no start used for an hour', async () => {
    const { options, setWord, outDir } = project('one');
    const old = dirname(fileURLToPath((await ensureServerBundle(options)).url));
    utimesSync(old, HOUR_AGO - 60, HOUR_AGO - 60);
    setWord('two', HOUR_AGO + 60);
    const recent = dirname(fileURLToPath((await ensureServerBundle(options)).url));
    setWord('three', HOUR_AGO + 120);
    const current = dirname(fileURLToPath((await ensureServerBundle(options)).url));
    const builds = readdirSync(outDir).filter((name) => name.startsWith('b-'));
    assert.deepEqual(builds.sort(), [recent, current].map((dir) => dir.split('/').pop()).sort());
  });

  test('a source esbuild cannot read fails the build and leaves no build behind', async () => {
    const { options, setWord, outDir } = project('one');
    setWord("unterminated'");
    await assert.rejects(ensureServerBundle(options));
    assert.deepEqual(readdirSync(outDir), []);
  });
});
