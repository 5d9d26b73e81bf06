/**
 * The real `pricing` binary around a `pricing serve --source none` on a temp data dir: accounts,
 * keys and the first import before the start, imported quotes read over HTTP, an import refused
 * while the server runs, a key revoked by the CLI refused. Then, on the same server, the game
 * read switch: `pricing games disable rust` (the real binary) turns its `/v2` rust reads into 503
 * (cs2 and keyless health unaffected), and `enable` turns them back. The test waits for each
 * change instead of timing it: that a server sees a switch within a second is the 250 ms poll of
 * src/schema/game-reads.test.ts, on a manual timer. The other games commands run in-process.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  CATALOG_CUT,
  CATALOG_CUT_ITEMS,
  runCli,
  runInProcess,
  startServer,
  tempDataDir,
  type RunningServer,
} from './cli-helpers.ts';
import { EXAMPLE_ITEMS } from '../src/boot/backfill.ts';

const ITEM = 'AK-47 | Redline (Field-Tested)';

function importFile(dir: string, fetchedAt: string): string {
  const lines = [
    {
      kind: 'book',
      game: 'cs2',
      market: 'skinport',
      item: ITEM,
      side: 'ask',
      currency: 'EUR',
      fetchedAt,
      levels: [{ price: 1400, quantity: 3, orders: 3 }],
      listingCount: 42,
    },
    {
      kind: 'book',
      game: 'cs2',
      market: 'csfloat',
      item: ITEM,
      side: 'ask',
      currency: 'USD',
      fetchedAt,
      levels: [{ price: 1550, quantity: 2, orders: 2 }],
      listingCount: 7,
    },
    {
      kind: 'book',
      game: 'cs2',
      market: 'csfloat',
      item: ITEM,
      side: 'bid',
      currency: 'USD',
      fetchedAt,
      levels: [{ price: 1450, quantity: 5, orders: 4 }],
      listingCount: 4,
    },
    'this is not json',
    {
      kind: 'sale',
      game: 'cs2',
      market: 'csfloat',
      item: ITEM,
      price: 1500,
      currency: 'USD',
      soldAt: fetchedAt,
      quantity: 1,
    },
    {
      kind: 'book',
      game: 'cs2',
      market: 'nowhere',
      item: ITEM,
      side: 'ask',
      currency: 'USD',
      fetchedAt,
      levels: [],
      listingCount: 0,
    },
  ];
  const path = join(dir, 'import.ndjson');
  writeFileSync(path, lines.map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('\n'));
  return path;
}

describe('end to end: the real CLI on a temp data dir', () => {
  const dir = tempDataDir();
  let server: RunningServer;
  let key = '';
  let demoKey = '';

  before(async () => {
    const created = runCli(['accounts', 'create', 'acme', '--plan', 'pro', '--data', dir]);
    assert.equal(created.code, 0, created.stderr);
    const keyOut = runCli(['keys', 'create', '--account', 'acme', '--data', dir]);
    assert.equal(keyOut.code, 0, keyOut.stderr);
    key = keyOut.stdout.trim().split('\n').at(-1)!;
    assert.match(key, /^sk_live_[A-Za-z0-9]{32}$/);

    const imported = runCli(['import', importFile(dir, new Date().toISOString()), '--data', dir]);
    assert.equal(imported.code, 3, imported.stderr + imported.stdout);
    assert.match(imported.stdout + imported.stderr, /line 4/);
    assert.match(imported.stdout + imported.stderr, /line 6/);

    server = await startServer(['--source', 'none', ...CATALOG_CUT, '--data', dir]);
    demoKey = readFileSync(join(dir, 'demo-key.txt'), 'utf8').trim();
  });

  after(async () => {
    await server?.stop();
  });

  test('bad arguments exit non-zero with a message', async () => {
    const result = await runInProcess(['accounts', 'create', 'x', '--plan', 'gold', '--data', dir]);
    assert.notEqual(result.code, 0);
    assert.match(result.stderr, /plan/);
    assert.notEqual((await runInProcess(['keys', 'revoke', '--data', dir])).code, 0);
  });

  test('a demo key was written on first start', () => {
    assert.match(demoKey, /^sk_live_/);
  });

  test('--catalog-items: the schema is the cut catalog, with the docs’ examples in it', async () => {
    const response = await fetch(`${server.baseUrl}/v1/schema`, {
      headers: { Authorization: `ApiKey ${demoKey}` },
    });
    assert.equal(response.status, 200);
    const body = (await response.json()) as { itemCount: number; items: Record<string, unknown> };
    const count = body.itemCount;
    assert.ok(count >= CATALOG_CUT_ITEMS && count < CATALOG_CUT_ITEMS + 100, `${count} items`);
    for (const name of EXAMPLE_ITEMS.filter((example) => example !== 'Tempered AK47')) {
      assert.ok(name in body.items, name);
    }
  });

  test('imported quotes are served over HTTP, with auth and quota headers', async () => {
    const url = `${server.baseUrl}/v1/pricing/${encodeURIComponent(ITEM)}`;
    const unauth = await fetch(url);
    assert.equal(unauth.status, 401);
    const response = await fetch(url, { headers: { Authorization: `ApiKey ${key}` } });
    assert.equal(response.status, 200);
    assert.ok(response.headers.get('x-request-id'));
    assert.equal(response.headers.get('x-ratelimit-limit'), '600');
    const body = await response.json();
    assert.equal(body.name, ITEM);
    assert.equal(body.markets.length, 2);
    assert.equal(body.bestBid.market, 'csfloat');
    assert.equal(body.bestBid.price, 1450);
    for (const quote of body.markets) assert.ok(Number.isInteger(quote.price));
  });

  test('an import while the server runs is refused clearly', () => {
    const result = runCli(['import', join(dir, 'import.ndjson'), '--data', dir]);
    assert.notEqual(result.code, 0);
    assert.match(result.stderr, /server/);
  });

  test('a key revoked by the CLI is refused', async () => {
    const list = await runInProcess(['keys', 'list', '--json', '--data', dir]);
    const keys = JSON.parse(list.stdout) as { id: string; account: string }[];
    const id = keys.find((k) => k.account === 'acme')!.id;
    assert.equal(runCli(['keys', 'revoke', id, '--data', dir]).code, 0);
    // The server re-reads changed keys every 250 ms (AccessService.startRefresh); the test
    // waits for the refusal itself, so a starved machine slows it down instead of failing it.
    const deadline = Date.now() + 15_000;
    let status = 0;
    while (status !== 401 && Date.now() < deadline) {
      const response = await fetch(`${server.baseUrl}/v1/items`, {
        headers: { Authorization: `Bearer ${key}` },
      });
      await response.arrayBuffer();
      status = response.status;
      if (status !== 401) await new Promise((r) => setTimeout(r, 50));
    }
    assert.equal(status, 401);
  });

  const demoStatus = async (path: string) => {
    const response = await fetch(`${server.baseUrl}${path}`, {
      headers: { Authorization: `ApiKey ${demoKey}` },
    });
    await response.arrayBuffer();
    return response.status;
  };
  const games = (...args: string[]) => runInProcess(['games', ...args, '--data', dir]);

  /**
   * Resolves once `path` answers `wanted` to the demo key, polling every 50 ms; the limit only
   * guards against a hang (a starved machine may take seconds).
   */
  async function until(path: string, wanted: number, what: string): Promise<void> {
    const deadline = Date.now() + 120_000;
    while ((await demoStatus(path)) !== wanted) {
      assert.ok(Date.now() < deadline, `${what}: ${path} never answered ${wanted}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  test('games disable takes effect on the running server, only on /v2 reads of that game', async () => {
    await until('/v1/schema', 200, 'schema built');
    const rust = '/v2/items?game=rust&search=tempered';
    assert.equal(await demoStatus(rust), 200);
    const off = runCli(['games', 'disable', 'rust', '--data', dir]);
    assert.equal(off.code, 0, off.stderr);
    assert.equal(off.stdout.trim(), 'rust reads disabled');
    await until(rust, 503, 'disabled');
    const refused = await fetch(`${server.baseUrl}${rust}`, {
      headers: { Authorization: `ApiKey ${demoKey}` },
    });
    assert.ok(Number(refused.headers.get('retry-after')) > 0);
    assert.equal((await fetch(`${server.baseUrl}${rust}`)).status, 401, 'auth still comes first');
    assert.equal(await demoStatus('/v2/items?game=cs2&search=redline'), 200);
    assert.equal(await demoStatus('/v2/markets/health?game=rust'), 200);
    assert.match((await games('list')).stdout, /rust\tdisabled/);

    assert.equal((await games('enable', 'rust')).code, 0);
    await until(rust, 200, 'enabled again');
  });

  test('games learned lists no learned items on a data dir without a Steam source', async () => {
    const learned = await games('learned', '--json');
    assert.equal(learned.code, 0, learned.stderr);
    assert.deepEqual(JSON.parse(learned.stdout), []);
    assert.equal((await games('learned', '--game', 'dota')).code, 2);
  });

  test('games usage errors exit 2', async () => {
    assert.equal((await games('disable', 'dota')).code, 2);
    assert.equal((await games('pause', 'rust')).code, 2);
  });
});
