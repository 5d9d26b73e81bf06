/**
 * The game read switch end to end: `pricing games disable rust` against the data dir of a
 * running `pricing serve` turns its `/v2` rust reads into 503 within a second (cs2 and keyless
 * health unaffected), and `enable` turns them back.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli, startServer, tempDataDir, type RunningServer } from './cli-helpers.ts';

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

  /** ms until `path` answers `wanted`, polling every 50 ms for at most `limitMs`. */
  async function msUntil(path: string, wanted: number, limitMs = 5_000): Promise<number> {
    const started = Date.now();
    while (Date.now() - started < limitMs) {
      if ((await status(path)) === wanted) return Date.now() - started;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return Number.POSITIVE_INFINITY;
  }

  test('takes effect within a second and only on /v2 reads of that game', async () => {
    // Measured on a settled server: the first schema build after start is done.
    assert.ok(Number.isFinite(await msUntil('/v1/schema', 200, 120_000)), 'schema built');
    const rust = '/v2/items?game=rust&search=tempered';
    assert.equal(await status(rust), 200);
    const off = runCli(['games', 'disable', 'rust', '--data', dir]);
    assert.equal(off.code, 0, off.stderr);
    assert.equal(off.stdout.trim(), 'rust reads disabled');
    assert.ok((await msUntil(rust, 503)) < 1_000, 'disabled within a second');
    const refused = await fetch(`${server.baseUrl}${rust}`, {
      headers: { Authorization: `ApiKey ${key}` },
    });
    assert.ok(Number(refused.headers.get('retry-after')) > 0);
    assert.equal((await fetch(`${server.baseUrl}${rust}`)).status, 401, 'auth still comes first');
    assert.equal(await status('/v2/items?game=cs2&search=redline'), 200);
    assert.equal(await status('/v2/markets/health?game=rust'), 200);
    assert.match(runCli(['games', 'list', '--data', dir]).stdout, /rust\tdisabled/);

    assert.equal(runCli(['games', 'enable', 'rust', '--data', dir]).code, 0);
    assert.ok((await msUntil(rust, 200)) < 1_000, 'enabled within a second');
  });

  test('games learned lists no learned items on a simulator data dir', () => {
    const learned = runCli(['games', 'learned', '--json', '--data', dir]);
    assert.equal(learned.code, 0, learned.stderr);
    assert.deepEqual(JSON.parse(learned.stdout), []);
    assert.equal(runCli(['games', 'learned', '--game', 'dota', '--data', dir]).code, 2);
  });

  test('usage errors exit 2', () => {
    assert.equal(runCli(['games', 'disable', 'dota', '--data', dir]).code, 2);
    assert.equal(runCli(['games', 'pause', 'rust', '--data', dir]).code, 2);
  });
});
