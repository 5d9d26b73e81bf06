// Runs every *.test.ts under src/ and test/ with Node's built-in test runner (tsx for TypeScript).
// An argument keeps only the files whose path contains it.
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

const filter = process.argv[2];
// test/ first: its end-to-end files are the longest, and a long file that started last would
// run alone at the end while the other core idles.
const files = ['test', 'src']
  .flatMap((dir) => collect(dir, []).sort())
  .filter((file) => !filter || file.includes(filter));
if (files.length === 0) {
  console.error('no test files found');
  process.exit(1);
}
// The reporter counts skipped suites in the summary and fails a run that skips with both
// DATABASE_URL and REDIS_URL set (scripts/test-reporter.mjs).
const reporter = join(import.meta.dirname, 'test-reporter.mjs');
const result = spawnSync(
  process.execPath,
  [
    '--import',
    'tsx',
    '--test',
    '--test-concurrency=2',
    `--test-reporter=${reporter}`,
    '--test-reporter-destination=stdout',
    ...files,
  ],
  { stdio: 'inherit' },
);
process.exit(result.status ?? 1);
