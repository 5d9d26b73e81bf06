// Runs every *.test.ts under src/ and test/ with Node's built-in test runner (tsx for TypeScript).
// Arguments keep only the files whose path contains one of them. The unit tests of src/ share a
// few processes, the end-to-end files of test/ have one each, longest first, as many at a time as
// the machine has cores (scripts/test-plan.mjs), after the run's catalog cache is filled
// (scripts/fill-catalog-cache.ts) and the server bundle is current (scripts/build-server.mjs); at
// the end it prints the CPU time the files took.
import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { spawnSync } from 'node:child_process';
import { collectTestFiles, planUnits, readWeights } from './test-plan.mjs';
import { cpuMs } from './test-group.mjs';

const filters = process.argv.slice(2);
const files = ['test', 'src']
  .flatMap((dir) => collectTestFiles(dir).sort())
  .filter((file) => filters.length === 0 || filters.some((part) => file.includes(part)));
if (files.length === 0) {
  console.error('no test files found');
  process.exit(1);
}
const units = planUnits(files, {
  weights: readWeights(join(import.meta.dirname, 'test-weights.json')),
  sourceOf: (file) => readFileSync(file, 'utf8'),
});

const work = mkdtempSync(join(tmpdir(), 'test-processes-'));
const groupModule = resolve(import.meta.dirname, 'test-group.mjs');
const entries = units.map((unit, index) => {
  const name = `${String(index + 1).padStart(2, '0')}-${unit.files[0].replaceAll('/', '_')}.mjs`;
  const path = join(work, name);
  writeFileSync(
    path,
    `import { runGroup } from ${JSON.stringify(groupModule)};\n` +
      `await runGroup(${JSON.stringify(unit.files)});\n`,
  );
  return path;
});
const accounting = join(work, 'accounting.tsv');
appendFileSync(accounting, '');

// One process per core of the machine (two on the 2-core target); TEST_CONCURRENCY=N changes it.
const cores = availableParallelism();
const concurrency = Number(process.env.TEST_CONCURRENCY ?? cores);
const env = {
  // One catalog cache for the run, filled before the files start: every server boot and test
  // process reads the built catalogs instead of building them.
  PRICING_CATALOG_CACHE_DIR: join(work, 'catalog-cache'),
  ...process.env,
  TEST_ACCOUNTING: accounting,
};
const fillCpu = cpuMs();
const fill = spawnSync(
  process.execPath,
  ['--import', 'tsx', join(import.meta.dirname, 'fill-catalog-cache.ts')],
  { stdio: 'inherit', env },
);
if (fill.status !== 0)
  console.error('# the catalog cache was not filled: the files build their own');
appendFileSync(accounting, `${cpuMs() - fillCpu}\t0\t(catalog cache)\n`);
// The CLIs the files start reuse one server bundle instead of each building it.
const bundleCpu = cpuMs();
const bundle = spawnSync(process.execPath, [join(import.meta.dirname, 'build-server.mjs')], {
  stdio: ['ignore', 'ignore', 'inherit'],
});
if (bundle.status !== 0) console.error('# the server bundle was not built: each CLI tries again');
appendFileSync(accounting, `${cpuMs() - bundleCpu}\t0\t(server bundle)\n`);
// The reporter counts skipped suites in the summary and fails a run that skips with both
// DATABASE_URL and REDIS_URL set (scripts/test-reporter.mjs).
const reporter = join(import.meta.dirname, 'test-reporter.mjs');
const result = spawnSync(
  process.execPath,
  [
    '--import',
    'tsx',
    '--test',
    `--test-concurrency=${concurrency}`,
    `--test-reporter=${reporter}`,
    '--test-reporter-destination=stdout',
    ...entries,
  ],
  { stdio: 'inherit', env },
);

const lines = readFileSync(accounting, 'utf8').trim().split('\n').filter(Boolean);
const rows = lines.map((line) => {
  const [cpu, wall, file] = line.split('\t');
  return { cpu: Number(cpu), wall: Number(wall), file };
});
const cpuSeconds = rows.reduce((sum, row) => sum + row.cpu, 0) / 1000;
const cpuOf = (what) => rows.filter((row) => row.file === what).reduce((s, row) => s + row.cpu, 0);
const secondsOf = (what) => (cpuOf(what) / 1000).toFixed(1);
console.log(
  `# cpu ${cpuSeconds.toFixed(1)} s in ${units.length} processes for ${files.length} files` +
    ` (process starts ${secondsOf('(process start)')} s, catalog cache ${secondsOf('(catalog cache)')} s,` +
    ` server bundle ${secondsOf('(server bundle)')} s);` +
    ` at ${concurrency} at a time on ${cores} cores no less than` +
    ` ${(cpuSeconds / Math.min(concurrency, cores)).toFixed(0)} s`,
);
if (process.env.TEST_TIMINGS) {
  const timed = rows.filter((row) => !row.file.startsWith('(')).sort((a, b) => b.cpu - a.cpu);
  writeFileSync(
    process.env.TEST_TIMINGS,
    timed.map((row) => `${row.cpu}\t${row.wall}\t${row.file}\n`).join(''),
  );
}
rmSync(work, { recursive: true, force: true });
process.exit(result.status ?? 1);
