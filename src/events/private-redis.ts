/**
 * Test helper: a private `redis-server` on a free port, without persistence (`--save ""`,
 * `--appendonly no`), that a test may kill (SIGKILL) and start again on the same port, empty,
 * as a Redis restart without persistence does. Suites skip visibly when `redis-server` is not
 * installed.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';

const installed = spawnSync('redis-server', ['--version']).status === 0;

export const needsRedisServer: { skip: string | false } = {
  skip: installed ? false : 'redis-server not installed',
};

export interface PrivateRedis {
  url: string;
  /** SIGKILL: every key is gone (nothing was persisted). */
  kill(): Promise<void>;
  /** Starts a fresh, empty server on the same port. */
  start(): Promise<void>;
  stop(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => {
        if (address && typeof address === 'object') resolve(address.port);
        else reject(new Error('no port'));
      });
    });
  });
}

async function answersPing(url: string): Promise<boolean> {
  const probe = new Redis(url, {
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  probe.on('error', () => {});
  try {
    await probe.connect();
    return (await probe.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    probe.disconnect();
  }
}

async function waitUntil(check: () => Promise<boolean>, what: string): Promise<void> {
  for (let waited = 0; waited < 10_000; waited += 50) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`private redis: ${what} within 10 s`);
}

export async function startPrivateRedis(): Promise<PrivateRedis> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'private-redis-'));
  const url = `redis://127.0.0.1:${port}`;
  let child: ChildProcess | null = null;
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'];

  const kill = async () => {
    const running = child;
    child = null;
    if (!running || running.exitCode !== null || running.signalCode !== null) return;
    const exited = new Promise((resolve) => running.once('exit', resolve));
    running.kill('SIGKILL');
    await exited;
  };

  const start = async () => {
    if (child) throw new Error('private redis is already running');
    child = spawn('redis-server', [...args, '--dir', dir], { stdio: 'ignore' });
    await waitUntil(() => answersPing(url), `no answer on ${url}`);
  };

  await start();
  return {
    url,
    kill,
    start,
    async stop() {
      await kill();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
