/**
 * Keys through the real `pricing` binary and a real server: a new key is never lost to a pipe
 * that closes early, a plan downgrade keeps a key's IP allow-list, and with TRUST_PROXY naming
 * the proxies a direct client's X-Forwarded-For counts for nothing. Where the binary's own
 * stdout is not the point, the commands run in-process (runInProcess).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { Agent, request } from 'undici';
import { PLAN_QUOTAS } from '../src/domain/plans.ts';
import {
  BIN,
  CATALOG_CUT,
  childEnv,
  runInProcess,
  startServer,
  tempDataDir,
  type RunningServer,
} from './cli-helpers.ts';

interface KeyRow {
  id: string;
  account: string;
  prefix: string;
  status: string;
}

describe('keys create: the key is shown before it is stored', () => {
  const dir = tempDataDir();
  const run = (...args: string[]) => runInProcess([...args, '--data', dir]);
  const listKeys = async () => JSON.parse((await run('keys', 'list', '--json')).stdout) as KeyRow[];

  before(async () => {
    assert.equal((await run('accounts', 'create', 'acme', '--plan', 'pro')).code, 0);
  });

  test('`| head -2` shows the id and the key, and the key is stored', async () => {
    const script = `"${process.execPath}" "${BIN}" keys create --account acme --data "${dir}" | head -2; echo "cli exit \${PIPESTATUS[0]}" >&2`;
    const result = spawnSync('bash', ['-c', script], { encoding: 'utf8', env: childEnv() });
    const lines = result.stdout.trim().split('\n');
    assert.equal(lines.length, 2, result.stdout);
    const id = /^key id: (key_\S+) \(expires never\)$/.exec(lines[0]!)?.[1];
    assert.ok(id, lines[0]);
    assert.match(lines[1]!, /^sk_live_[0-9A-Za-z]{32}$/);
    assert.match(result.stderr, /cli exit 0/);
    const stored = (await listKeys()).find((row) => row.id === id);
    assert.equal(stored?.prefix, lines[1]!.slice(0, 12));
  });

  test('a reader that is gone before the key is written: exit 1 and no key', async () => {
    const before = (await listKeys()).length;
    const child = spawn(
      process.execPath,
      [BIN, 'keys', 'create', '--account', 'acme', '--data', dir],
      { stdio: ['ignore', 'pipe', 'pipe'], env: childEnv() },
    );
    child.stdout.destroy();
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise((resolve) => child.once('close', resolve));
    assert.equal(code, 1, stderr);
    assert.match(stderr, /could not be written to stdout \(EPIPE\); no key was created/);
    assert.doesNotMatch(stderr, /Unhandled|at .*\.js:\d+/);
    assert.equal((await listKeys()).length, before);
  });

  test('a listing into a pipe that is already closed ends quietly (no EPIPE crash)', async () => {
    const child = spawn(process.execPath, [BIN, 'keys', 'list', '--data', dir], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: childEnv(),
    });
    child.stdout.destroy();
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    assert.equal(await new Promise((resolve) => child.once('close', resolve)), 0, stderr);
    assert.equal(stderr, '');
  });

  test('revoking twice says the key was already revoked', async () => {
    const id = (await listKeys())[0]!.id;
    const first = await run('keys', 'revoke', id);
    assert.equal(first.code, 0, first.stderr);
    assert.equal(first.stdout.trim(), `revoked ${id}`);
    const again = await run('keys', 'revoke', id);
    assert.equal(again.code, 0, again.stderr);
    assert.equal(again.stdout.trim(), `${id} was already revoked`);
  });

  test('keys list shows trial and allow-list in text form', async () => {
    await run('accounts', 'create', 'big', '--plan', 'enterprise');
    const restricted = ['--allow-ip', '10.0.0.0/8,192.0.2.1', '--allow-ip', '2001:db8::/32'];
    assert.equal((await run('keys', 'create', '--account', 'big', ...restricted)).code, 0);
    assert.equal((await run('keys', 'create', '--account', 'big', '--trial')).code, 0);
    const [header, ...rows] = (await run('keys', 'list')).stdout.trim().split('\n');
    assert.deepEqual(header!.split('\t'), [
      'id',
      'account',
      'prefix',
      'status',
      'trial',
      'created',
      'expires',
      'allow-ips',
    ]);
    const big = rows.map((row) => row.split('\t')).filter((cells) => cells[1] === 'big');
    assert.deepEqual(
      big.map((cells) => [cells[4], cells[7]]),
      [
        ['no', '10.0.0.0/8,192.0.2.1/32,2001:db8::/32'],
        ['yes', 'any'],
      ],
    );
  });
});

describe('a server behind TRUST_PROXY=10.0.0.0/8, reached directly from 127.0.0.1', () => {
  const dir = tempDataDir();
  let server: RunningServer;
  let key = '';
  let openKey = '';
  const read = (path: string, forwardedFor?: string, auth = true) =>
    fetch(`${server.baseUrl}${path}`, {
      headers: {
        ...(auth ? { authorization: `ApiKey ${key}` } : {}),
        ...(forwardedFor === undefined ? {} : { 'x-forwarded-for': forwardedFor }),
      },
    });

  /**
   * The statuses of 61 keyless health reads from `localAddress`, each with another spoofed
   * X-Forwarded-For; null when they may have crossed a clock minute (the server runs on the
   * system clock, as this process does).
   */
  const healthBurst = async (localAddress: string): Promise<number[] | null> => {
    const minute = Math.floor(Date.now() / 60_000);
    const dispatcher = new Agent({ localAddress });
    const statuses: number[] = [];
    try {
      for (let i = 0; i < 61; i += 1) {
        const response = await request(`${server.baseUrl}/v1/markets/health`, {
          dispatcher,
          headers: { 'x-forwarded-for': `10.0.${i}.1` },
        });
        await response.body.dump();
        statuses.push(response.statusCode);
      }
    } finally {
      await dispatcher.close();
    }
    return Math.floor(Date.now() / 60_000) === minute ? statuses : null;
  };

  /** Waits until the server's key cache has the account on a plan with `perMinute` requests. */
  const untilServerSeesPlan = async (perMinute: number) => {
    const deadline = Date.now() + 30_000;
    for (;;) {
      const response = await fetch(`${server.baseUrl}/v1/status/freshness`, {
        headers: { authorization: `ApiKey ${openKey}` },
      });
      await response.arrayBuffer();
      const limit = response.headers.get('x-ratelimit-limit');
      if (limit === String(perMinute)) return;
      assert.ok(Date.now() < deadline, `the server still answers with a limit of ${limit}`);
      await sleep(50);
    }
  };

  const run = (...args: string[]) => runInProcess([...args, '--data', dir]);

  before(async () => {
    assert.equal((await run('accounts', 'create', 'ent', '--plan', 'enterprise')).code, 0);
    const created = await run('keys', 'create', '--account', 'ent', '--allow-ip', '10.0.0.0/8');
    key = created.stdout.trim().split('\n').at(-1)!;
    const open = await run('keys', 'create', '--account', 'ent');
    openKey = open.stdout.trim().split('\n').at(-1)!;
    server = await startServer(['--source', 'none', ...CATALOG_CUT, '--data', dir], {
      env: childEnv({ TRUST_PROXY: '10.0.0.0/8' }),
    });
  });

  after(async () => {
    await server?.stop();
  });

  test('a spoofed X-Forwarded-For does not pass the allow-list', async () => {
    const response = await read('/v1/status/freshness', '10.1.2.3');
    assert.equal(response.status, 403);
    assert.equal((await response.json()).code, 'IP_NOT_ALLOWED');
  });

  test('nor does it buy a fresh health budget', async () => {
    // The budget is 60 a clock minute; a burst that crosses a minute boundary is repeated
    // from another loopback address, whose budget is untouched.
    const statuses = (await healthBurst('127.0.0.1')) ?? (await healthBurst('127.0.0.2'));
    assert.ok(statuses, 'two bursts in a row crossed a minute boundary');
    assert.equal(statuses.filter((status) => status === 200).length, 60, String(statuses));
    assert.equal(statuses.at(-1), 429);
  });

  test('a downgrade to Pro keeps the allow-list and says so', async () => {
    const changed = await run('accounts', 'set', 'ent', '--plan', 'pro');
    assert.equal(changed.code, 0, changed.stderr);
    assert.match(changed.stdout, /IP allow-lists stay in force on pro: key_\S+ \(10\.0\.0\.0\/8\)/);
    await untilServerSeesPlan(PLAN_QUOTAS.pro.perMinute);
    const response = await read('/v1/status/freshness');
    assert.equal(response.status, 403);
    assert.equal((await response.json()).code, 'IP_NOT_ALLOWED');
  });
});
