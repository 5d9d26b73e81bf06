/**
 * `npm test`'s runner (scripts/run-tests.mjs and its reporter) on a fixture project with a
 * skipped suite and a skipped test: the final summary counts both and lists them with their
 * reasons, and the run fails when DATABASE_URL and REDIS_URL are both set (as in CI); the
 * summary names the slowest files.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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

function runTests(env: NodeJS.ProcessEnv) {
  const dir = mkdtempSync(join(tmpdir(), 'run-tests-'));
  mkdirSync(join(dir, 'src'));
  mkdirSync(join(dir, 'test'));
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
  writeFileSync(join(dir, 'test', 'fixture.test.ts'), FIXTURE);
  const own = { ...env };
  delete own.NODE_TEST_CONTEXT;
  const result = spawnSync(process.execPath, [join(ROOT, 'scripts', 'run-tests.mjs')], {
    cwd: dir,
    encoding: 'utf8',
    env: own,
    timeout: 60_000,
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

  test('names the slowest files, and TEST_TIMINGS gets every file with its time', () => {
    const timings = join(mkdtempSync(join(tmpdir(), 'timings-')), 'times.tsv');
    const { code, output } = runTests(childEnv({ TEST_TIMINGS: timings }));
    assert.equal(code, 0, output);
    assert.match(output, /slowest files:\n# +\d+ ms test\/fixture\.test\.ts\n/);
    assert.match(readFileSync(timings, 'utf8'), /^\d+\ttest\/fixture\.test\.ts\n$/);
  });

  test('with DATABASE_URL and REDIS_URL set (as in CI) a skip fails the run', () => {
    const env = childEnv({ DATABASE_URL: 'postgres://unused', REDIS_URL: 'redis://unused' });
    const { code, output } = runTests(env);
    assert.equal(code, 1, output);
    assert.match(output, /DATABASE_URL and REDIS_URL are set, so nothing may be skipped/);
  });
});
