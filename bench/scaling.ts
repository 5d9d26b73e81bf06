/**
 * Pricing reads served by two API processes against one, on one PostgreSQL and one Redis (the
 * scaled deployment): an ingest process fills the store, is stopped (so it competes for no CPU),
 * then autocannon loads one API process, then two at once with the same total connections.
 * The load generator shares the machine's cores with the servers, which caps the ratio.
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import {
  describeLoad,
  load,
  spawnServer,
  type ChildServer,
  type LoadResult,
  PRICING_BIN,
} from './harness.ts';
import { BENCH_ITEM } from './http-reads.ts';

function tempDir(): string {
  return mkdtempSync(join(tmpdir(), 'pricing-scale-'));
}

async function withSchema<T>(url: string, work: (schema: string) => Promise<T>): Promise<T> {
  const schema = `bench_scale_${randomBytes(4).toString('hex')}`;
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query(`CREATE SCHEMA ${schema}`);
  try {
    return await work(schema);
  } finally {
    await client.query(`DROP SCHEMA ${schema} CASCADE`);
    await client.end();
  }
}

async function waitForItem(server: ChildServer, key: string, path: string): Promise<void> {
  for (let attempt = 0; attempt < 240; attempt += 1) {
    const response = await fetch(`${server.url}${path}`, {
      headers: { Authorization: `ApiKey ${key}` },
    });
    if (response.ok) return;
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`no quotes for ${path}`);
}

function total(results: LoadResult[]): LoadResult {
  return {
    requestsPerSecond: results.reduce((sum, r) => sum + r.requestsPerSecond, 0),
    p50Ms: Math.max(...results.map((r) => r.p50Ms)),
    p99Ms: Math.max(...results.map((r) => r.p99Ms)),
    maxMs: Math.max(...results.map((r) => r.maxMs)),
    errors: results.reduce((sum, r) => sum + r.errors, 0),
    non2xx: results.reduce((sum, r) => sum + r.non2xx, 0),
  };
}

export async function benchApiScaling(databaseUrl?: string, redisUrl?: string): Promise<void> {
  if (!databaseUrl || !redisUrl) {
    return console.log('two API processes vs one: skipped (DATABASE_URL and REDIS_URL not set)');
  }
  await withSchema(databaseUrl, async (schema) => {
    const env = {
      ...process.env,
      DATABASE_URL: databaseUrl,
      REDIS_URL: redisUrl,
      PRICING_PG_SCHEMA: schema,
      PRICING_REDIS_PREFIX: `bench:${randomBytes(4).toString('hex')}:`,
      LOG_LEVEL: 'warn',
    };
    const cli = (...args: string[]) =>
      spawnSync(process.execPath, [PRICING_BIN, ...args], { encoding: 'utf8', env })
        .stdout.trim()
        .split('\n');
    cli('accounts', 'create', 'bench', '--plan', 'enterprise', '--per-minute', '100000000');
    const key = cli('keys', 'create', '--account', 'bench').at(-1)!;
    const path = `/v1/pricing/${encodeURIComponent(BENCH_ITEM)}`;
    const ingestArgs = ['--role', 'ingest', '--sim-items', '3000', '--backfill-days', '0'];
    const ingest = await spawnServer(
      [PRICING_BIN, 'serve', ...ingestArgs, '--data', tempDir()],
      180_000,
      env,
      /ingest running as/,
    );
    const apiArgs = [PRICING_BIN, 'serve', '--role', 'api', '--port', '0'];
    const apiA = await spawnServer([...apiArgs, '--data', tempDir()], 180_000, env);
    let apiB: ChildServer | null = null;
    try {
      await waitForItem(apiA, key, path);
      await new Promise((r) => setTimeout(r, 15_000));
      await ingest.stop();
      apiB = await spawnServer([...apiArgs, '--data', tempDir()], 180_000, env);
      await waitForItem(apiB, key, path);
      const headers = { Authorization: `ApiKey ${key}` };
      await load(`${apiA.url}${path}`, { seconds: 2, headers });
      const one = await load(`${apiA.url}${path}`, { headers });
      console.log(describeLoad('GET /v1/pricing/:name, one API process (Redis quotas)', one));
      await load(`${apiB.url}${path}`, { seconds: 2, headers });
      const two = total(
        await Promise.all(
          [apiA, apiB].map((api) => load(`${api.url}${path}`, { connections: 25, headers })),
        ),
      );
      console.log(
        `${describeLoad('GET /v1/pricing/:name, two API processes (25 connections each)', two)}; ` +
          `scaling ratio vs one process ${(two.requestsPerSecond / one.requestsPerSecond).toFixed(2)}`,
      );
    } finally {
      await apiB?.stop();
      await apiA.stop();
      if (ingest.child.exitCode === null) await ingest.stop();
    }
  });
}
