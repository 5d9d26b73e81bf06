/**
 * The game read switch end to end: `pricing games disable rust` (the real binary) against the
 * data dir of a running `pricing serve` turns its `/v2` rust reads into 503 (cs2 and keyless
 * health unaffected), and `enable` turns them back. The test waits for the change instead of
 * timing it: that a server sees it within a second is the 250 ms poll of
 * src/schema/game-reads.test.ts, on a manual timer. The other games commands run in-process.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  runCli,
  runInProcess,
  startServer,
  tempDataDir,
  type RunningServer,
} from './cli-helpers.ts';

describe('pricing games disable|enable on a running server', () => {
  const dir = tempDataDir();
  let server: RunningServer;
  let key = '';

  before(async () => {
    server = await startServer(['--source', 'none', '--data', dir]);
    key = readFileSync(join(dir, 'demo-key.txt'), 'utf8').trim();
  });
  after(async () => {
    await server?.stop();
  });

  const status = async (path: string) =>
    (await fetch(`${server.baseUrl}${path}`, { headers: { Authorization: `ApiKey ${key}` } }))
      .status;

  const run = (...args: string[]) => runInProcess([...args, '--data', dir]);

  /**
   * Resolves once `path` answers `wanted`, polling every 50 ms; the limit only guards against a
   * hang (a starved machine may take seconds).
   */
  async function until(path: string, wanted: number, what: string): Promise<void> {
    const deadline = Date.now() + 120_000;
    while ((await status(path)) !== wanted) {
      assert.ok(Date.now() < deadline, `${what}: ${path} never answered ${wanted}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  test('takes effect on a running server and only on /v2 reads of that game', async () => {
    await until('/v1/schema', 200, 'schema built');
    const rust = '/v2/items?game=rust&search=tempered';
    assert.equal(await status(rust), 200);
    const off = runCli(['games', 'disable', 'rust', '--data', dir]);
    assert.equal(off.code, 0, off.stderr);
    assert.equal(off.stdout.trim(), 'rust reads disabled');
    await until(rust, 503, 'disabled');
    const refused = await fetch(`${server.baseUrl}${rust}`, {
      headers: { Authorization: `ApiKey ${key}` },
    });
    assert.ok(Number(refused.headers.get('retry-after')) > 0);
    assert.equal((await fetch(`${server.baseUrl}${rust}`)).status, 401, 'auth still comes first');
    assert.equal(await status('/v2/items?game=cs2&search=redline'), 200);
    assert.equal(await status('/v2/markets/health?game=rust'), 200);
    assert.match((await run('games', 'list')).stdout, /rust\tdisabled/);

    assert.equal((await run('games', 'enable', 'rust')).code, 0);
    await until(rust, 200, 'enabled again');
  });

  test('games learned lists no learned items on a simulator data dir', async () => {
    const learned = await run('games', 'learned', '--json');
    assert.equal(learned.code, 0, learned.stderr);
    assert.deepEqual(JSON.parse(learned.stdout), []);
    assert.equal((await run('games', 'learned', '--game', 'dota')).code, 2);
  });

  test('usage errors exit 2', async () => {
    assert.equal((await run('games', 'disable', 'dota')).code, 2);
    assert.equal((await run('games', 'pause', 'rust')).code, 2);
  });
});
