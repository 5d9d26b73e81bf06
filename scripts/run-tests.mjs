// Runs every *.test.ts under src/ and test/ with Node's built-in test runner (tsx for TypeScript).
// Arguments keep only the files whose path contains one of them.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';

function collect(dir, out) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) collect(path, out);
    else if (name.endsWith('.test.ts')) out.push(path);
  }
  return out;
}

const filters = process.argv.slice(2);
// test/ first: its end-to-end files are the longest, and a long file that started last would
// run alone at the end while the other core idles.
const files = ['test', 'src']
  .flatMap((dir) => collect(dir, []).sort())
  .filter((file) => filters.length === 0 || filters.some((part) => file.includes(part)));
if (files.length === 0) {
  console.error('no test files found');
  process.exit(1);
}
// Two files at a time, one per core of the 2-core target. The end-to-end files mostly wait on
// servers, browsers and polls (wall 2 to 7 times their CPU), so a quiet machine may gain from
// more (TEST_CONCURRENCY=4); on a loaded one four at a time starved PostgreSQL connections and
// a lease failover past their guards.
const concurrency = Number(process.env.TEST_CONCURRENCY ?? 2);
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
    ...files,
  ],
  { stdio: 'inherit' },
);
process.exit(result.status ?? 1);
