/**
 * `npm test`'s runner (scripts/run-tests.mjs and its reporter) on a fixture project with a
 * skipped suite and a skipped test: the final summary counts both and lists them with their
 * reasons, and the run fails when DATABASE_URL and REDIS_URL are both set (as in CI); the
 * summary names the slowest files and, last, every failed test with its error's first line. Unit test files of src/ share a process: each one's results,
 * failures and top-level hooks stay its own. The plan of processes starts the heaviest first.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { planUnits } from '../scripts/test-plan.mjs';
import { childEnv } from './cli-helpers.ts';

const ROOT = join(import.meta.dirname, '..');

const FIXTURE = `
import { describe, test } from 'node:test';
describe('needs a server', { skip: 'SERVER_URL not set' }, () => {
  test('reads from it', () => {});
});
test('not today', { skip: true }, () => {});
test('runs', () => {});
`;

/** Two unit files in one process: the first's top-level hook must not reach the second. */
const SHARED = {
  'src/first.test.ts': `
import { after, beforeEach, test } from 'node:test';
import { writeFileSync } from 'node:fs';
let hooked = 0;
beforeEach(() => { hooked += 1; });
after(() => { writeFileSync('first-done', String(hooked)); });
test('first passes', () => {});
test('first fails', () => { throw new Error('first broke'); });
`,
  'src/second.test.ts': `
import { test } from 'node:test';
import { existsSync, readFileSync } from 'node:fs';
test('second runs after the first finished', () => {
  if (readFileSync('first-done', 'utf8') !== '2') throw new Error('first not finished');
});
test('second shares the process', () => {
  if (!existsSync('first-done')) throw new Error('missing');
});
`,
};

function runTests(
  env: NodeJS.ProcessEnv,
  files: Record<string, string> = { 'test/fixture.test.ts': FIXTURE },
) {
  const dir = mkdtempSync(join(tmpdir(), 'run-tests-'));
  mkdirSync(join(dir, 'src'));
  mkdirSync(join(dir, 'test'));
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
  for (const [path, text] of Object.entries(files)) writeFileSync(join(dir, path), text);
  const own = { ...env };
  delete own.NODE_TEST_CONTEXT;
  // The outer run's timing file is not this fixture run's to overwrite.
  if (own.TEST_TIMINGS === process.env.TEST_TIMINGS) delete own.TEST_TIMINGS;
  const result = spawnSync(process.execPath, [join(ROOT, 'scripts', 'run-tests.mjs')], {
    cwd: dir,
    encoding: 'utf8',
    env: own,
    // Hang guard only: each run is a few seconds of CPU, many times that on a busy machine.
    timeout: 180_000,
  });
  return { code: result.status, output: result.stdout + result.stderr };
}

describe('npm test summary', () => {
  test('counts skipped suites and names every skip with its reason', () => {
    const { code, output } = runTests(childEnv());
    assert.equal(code, 0, output);
    assert.match(output, /skipped 2 \(1 suites, 1 tests\)/);
    assert.doesNotMatch(output, /skipped 0/);
    assert.match(
      output,
      /skipped suite: needs a server \(SERVER_URL not set\) test\/fixture\.test\.ts/,
    );
    assert.match(output, /skipped test: not today \(no reason given\) test\/fixture\.test\.ts/);
    assert.match(output, /pass 1/);
  });

  test('names the slowest files, and TEST_TIMINGS gets every file with its CPU and wall time', () => {
    const timings = join(mkdtempSync(join(tmpdir(), 'timings-')), 'times.tsv');
    const { code, output } = runTests(childEnv({ TEST_TIMINGS: timings }));
    assert.equal(code, 0, output);
    assert.match(output, /slowest files:\n# +\d+ ms test\/fixture\.test\.ts\n/);
    assert.match(readFileSync(timings, 'utf8'), /^\d+\t\d+\ttest\/fixture\.test\.ts\n$/);
    assert.match(output, /# cpu \d+\.\d s in 1 processes for 1 files/);
  });

  test('with DATABASE_URL and REDIS_URL set (as in CI) a skip fails the run', () => {
    const env = childEnv({ DATABASE_URL: 'postgres://unused', REDIS_URL: 'redis://unused' });
    const { code, output } = runTests(env);
    assert.equal(code, 1, output);
    assert.match(output, /DATABASE_URL and REDIS_URL are set, so nothing may be skipped/);
  });
});

describe('test processes', () => {
  test('unit files share one process, each with its own failures and hooks', () => {
    const { code, output } = runTests(childEnv(), SHARED);
    assert.equal(code, 1, output);
    assert.match(output, /# cpu \d+\.\d s in 1 processes for 2 files/);
    assert.match(output, /not ok \d+ - first fails[\s\S]*first broke/);
    assert.match(output, /not ok \d+ - src\/first\.test\.ts/);
    assert.match(output, /\nok \d+ - src\/second\.test\.ts/);
    assert.match(output, /# pass 3\n# fail 1/);
    assert.match(output, /# failed: first fails \(src\/first\.test\.ts\): first broke\n/);
  });

  test('a file that leaves a server open fails its process instead of hanging the run', () => {
    const leak = `
import { test } from 'node:test';
import net from 'node:net';
test('listens and forgets', async () => {
  await new Promise((resolve) => net.createServer().listen(0, '127.0.0.1', resolve));
});
`;
    const env = childEnv({ TEST_HANDLE_GRACE_MS: '500' });
    const { code, output } = runTests(env, { 'src/leak.test.ts': leak });
    assert.equal(code, 1, output);
    assert.match(output, /still open 0\.5 s after src\/leak\.test\.ts: Server on port \d+/);
  });

  test('end-to-end files and marked files get their own process, the heaviest first', () => {
    const files = ['src/a.test.ts', 'src/b.test.ts', 'src/own.test.ts', 'test/e2e.test.ts'];
    const units = planUnits(files, {
      weights: { 'src/a.test.ts': 30, 'src/b.test.ts': 15, 'test/e2e.test.ts': 40 },
      sourceOf: (file: string) => (file === 'src/own.test.ts' ? '// own test process: env' : ''),
    });
    assert.deepEqual(units, [
      { files: ['test/e2e.test.ts'], weight: 40 },
      { files: ['src/a.test.ts'], weight: 30 },
      { files: ['src/b.test.ts'], weight: 15 },
      { files: ['src/own.test.ts'], weight: 1 },
    ]);
  });
});
