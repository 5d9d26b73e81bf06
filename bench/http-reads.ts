/**
 * Key-gated reads through the full auth → plan → quota path on the real `pricing serve` (full
 * CS2 catalog loaded, simulator quotes), against a bare Fastify hello-world in the same run.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  describeLoad,
  embeddedEnv,
  load,
  ratio,
  spawnServer,
  type ChildServer,
  type LoadResult,
  PRICING_BIN,
} from './harness.ts';

const HELLO = join(import.meta.dirname, 'hello-server.ts');
const SETTLE_MS = 20_000;
export const BENCH_ITEM = 'AK-47 | Redline (Field-Tested)';

function cli(args: string[]): string {
  const result = spawnSync(process.execPath, [PRICING_BIN, ...args], {
    encoding: 'utf8',
    env: embeddedEnv(),
  });
  if (result.status !== 0) throw new Error(`pricing ${args.join(' ')} failed: ${result.stderr}`);
  return result.stdout;
}

/** A data dir with an unthrottled Enterprise account (a per-account override). */
export function prepareBenchAccount(dataDir: string): string {
  cli([
    'accounts',
    'create',
    'bench',
    '--plan',
    'enterprise',
    '--per-minute',
    '100000000',
    '--data',
    dataDir,
  ]);
  return cli(['keys', 'create', '--account', 'bench', '--data', dataDir])
    .trim()
    .split('\n')
    .at(-1)!;
}

async function waitForQuotes(url: string, key: string): Promise<void> {
  for (let attempt = 0; attempt < 120; attempt += 1) {
    const response = await fetch(url, { headers: { Authorization: `ApiKey ${key}` } });
    if (response.ok && ((await response.json()) as { markets: unknown[] }).markets.length > 0)
      return;
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error('no quotes arrived');
}

export interface ReadBenchResult {
  reads: Record<string, LoadResult>;
}

function serveArgs(dataDir: string, source: 'sim' | 'none'): string[] {
  const args = ['serve', '--port', '0', '--data', dataDir, '--source', source];
  return [PRICING_BIN, ...args, '--backfill-days', '0', '--log-level', 'warn'];
}

/** The baseline is measured at the start of each phase, under that phase's background load. */
async function measureReads(
  label: string,
  server: ChildServer,
  paths: Record<string, string>,
  key: string,
  hello: ChildServer,
): Promise<Record<string, LoadResult>> {
  const headers = { Authorization: `ApiKey ${key}` };
  await load(`${hello.url}/hello`, { seconds: 2 });
  const baseline = await load(`${hello.url}/hello`);
  console.log(describeLoad(`baseline bare Fastify hello-world [${label}]`, baseline));
  const reads: Record<string, LoadResult> = { [`baseline [${label}]`]: baseline };
  for (const [name, path] of Object.entries(paths)) {
    await load(`${server.url}${path}`, { seconds: 2, headers });
    reads[name] = await load(`${server.url}${path}`, { headers });
    const ratioText = ratio(reads[name].requestsPerSecond, baseline.requestsPerSecond);
    console.log(
      `${describeLoad(`${name} [${label}]`, reads[name])}; ratio vs baseline ${ratioText}`,
    );
  }
  return reads;
}

/**
 * Two phases on the same data dir: reads while the simulator polls every market (the ingest
 * worker competes for the same 2 cores), then reads on the same fully quoted book restarted
 * with `--source none` (no ingest).
 */
export async function benchHttpReads(paths: Record<string, string>): Promise<ReadBenchResult> {
  const dataDir = mkdtempSync(join(tmpdir(), 'pricing-bench-'));
  const key = prepareBenchAccount(dataDir);
  const hello = await spawnServer(['--import', 'tsx', HELLO]);
  try {
    const live = await spawnServer(serveArgs(dataDir, 'sim'));
    let reads: Record<string, LoadResult>;
    try {
      await waitForQuotes(`${live.url}${Object.values(paths)[0]}`, key);
      // Let the first polling wave (every market's whole catalog at once) settle.
      await new Promise((r) => setTimeout(r, SETTLE_MS));
      reads = await measureReads('simulator ingesting', live, paths, key, hello);
    } finally {
      await live.stop();
    }
    const quiet = await spawnServer(serveArgs(dataDir, 'none'));
    try {
      await waitForQuotes(`${quiet.url}${Object.values(paths)[0]}`, key);
      const quietReads = await measureReads('quiet book', quiet, paths, key, hello);
      for (const [name, result] of Object.entries(quietReads)) reads[`${name} [quiet]`] = result;
    } finally {
      await quiet.stop();
    }
    return { reads };
  } finally {
    await hello.stop();
  }
}
