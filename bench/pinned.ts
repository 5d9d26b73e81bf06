/**
 * The issue-18 harness: the server process with all its threads pinned to core 0
 * (`taskset -a -c 0`), the load generator (autocannon, in this process) pinned to core 1, the
 * simulator running over the full CS2 catalog; every read's ratio against a bare `node:http`
 * hello-world pinned the same way and measured in the same run, with p99 at 50 connections.
 * `taskset` comes from util-linux (taskset(1)); with fewer than 2 cores the pins are skipped.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  describeLoad,
  embeddedEnv,
  load,
  ratio,
  type ChildServer,
  type LoadResult,
  PRICING_BIN,
} from './harness.ts';
import { BENCH_ITEM, prepareBenchAccount } from './http-reads.ts';
import { measureUse, popularPricingPaths } from './pinned-use.ts';

const HELLO = join(import.meta.dirname, 'hello-node.ts');
export const SERVER_CORE = 0;
export const LOAD_CORE = 1;
/** The builds that follow listen (items/all, bulk liquidity, schema) finish within this. */
export const QUIET_SETTLE_MS = 15_000;

export function canPin(): boolean {
  return cpus().length >= 2 && spawnSync('taskset', ['-V']).status === 0;
}

/** Pins this process (all its threads) to `core`: the load generator's side. */
export function pinSelf(core: number): void {
  if (!canPin()) return;
  spawnSync('taskset', ['-a', '-p', '-c', String(core), String(process.pid)]);
}

/** Gives this process every core back. */
export function unpinSelf(): void {
  if (!canPin()) return;
  const all = `0-${cpus().length - 1}`;
  spawnSync('taskset', ['-a', '-p', '-c', all, String(process.pid)]);
}

/** `node <args>` with all its threads on `core`; resolves on its `listening on` line. */
export function spawnPinned(
  args: string[],
  core = SERVER_CORE,
  ready: RegExp = /listening on (http:\/\/\S+)/,
  timeoutMs = 240_000,
): Promise<ChildServer & { metricsUrl?: string }> {
  const command = canPin() ? 'taskset' : process.execPath;
  const prefix = canPin() ? ['-a', '-c', String(core), process.execPath] : [];
  const child = spawn(command, [...prefix, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: embeddedEnv(),
  });
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`not ready:\n${output}`)), timeoutMs);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = ready.exec(output);
      if (!match) return;
      clearTimeout(timer);
      child.stdout!.off('data', onData);
      child.stderr!.off('data', onData);
      resolve({
        url: match.groups?.url ?? match[1] ?? '',
        ...(match.groups?.metrics ? { metricsUrl: match.groups.metrics } : {}),
        child,
        stop: () =>
          new Promise((done) => {
            if (child.exitCode !== null) return done();
            child.once('exit', () => done());
            child.kill('SIGTERM');
          }),
      });
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`exited ${code}:\n${output}`)));
  });
}

/** Waits until `url` answers with at least one market row; the ms it took. */
export async function waitForPrices(url: string, key: string, timeoutMs = 240_000) {
  const started = performance.now();
  while (performance.now() - started < timeoutMs) {
    try {
      const response = await fetch(url, { headers: { Authorization: `ApiKey ${key}` } });
      if (response.ok) {
        const body = (await response.json()) as { markets?: unknown[] };
        if ((body.markets?.length ?? 0) > 0) return performance.now() - started;
      }
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no prices at ${url}`);
}

const item = encodeURIComponent(BENCH_ITEM);
export const PINNED_PATHS: Record<string, string> = {
  'GET /v1/pricing/:name': `/v1/pricing/${item}`,
  'GET /v1/nbbo?market_hash_name=': `/v1/nbbo?market_hash_name=${item}`,
  'GET /v1/nbbo/depth?market_hash_name=': `/v1/nbbo/depth?market_hash_name=${item}`,
};

/** CPU seconds (user + system, every thread) the process has used; proc(5) fields 14, 15. */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]);
  return ticks / CLOCK_TICKS;
}

const CLOCK_TICKS = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout) || 100;

/** Throughput and latency, and the server's CPU per request (contention on the machine aside). */
async function measure(server: ChildServer, url: string, headers: Record<string, string> = {}) {
  await load(url, { seconds: 2, headers });
  const before = cpuSeconds(server.child.pid!);
  const result = await load(url, { headers });
  const cpu = cpuSeconds(server.child.pid!) - before;
  const requests = result.requestsPerSecond * 8;
  return { result, cpuMicros: requests > 0 ? (cpu * 1e6) / requests : Number.NaN };
}

function describeRead(name: string, read: Measured, baseline: Measured): string {
  const ratioText = ratio(read.result.requestsPerSecond, baseline.result.requestsPerSecond);
  return (
    `${describeLoad(name, read.result)}; ratio vs node:http ${ratioText}; ` +
    `server CPU ${read.cpuMicros.toFixed(0)} µs/request, CPU ratio ${ratio(baseline.cpuMicros, read.cpuMicros)}`
  );
}

type Measured = Awaited<ReturnType<typeof measure>>;

async function readPhase(label: string, server: ChildServer, key: string, baseline: Measured) {
  const headers = { Authorization: `ApiKey ${key}` };
  for (const [name, path] of Object.entries(PINNED_PATHS)) {
    const read = await measure(server, `${server.url}${path}`, headers);
    console.log(describeRead(`${name} [${label}]`, read, baseline));
  }
}

function serveArgs(dataDir: string, source: 'sim' | 'none'): string[] {
  const args = ['serve', '--port', '0', '--data', dataDir, '--source', source];
  return [PRICING_BIN, ...args, '--backfill-days', '0', '--log-level', 'warn'];
}

/** The default start (default backfill) with the operator listener on a free port. */
export function defaultStartArgs(dataDir: string): string[] {
  const args = ['serve', '--port', '0', '--data', dataDir, '--source', 'sim'];
  return [PRICING_BIN, ...args, '--metrics-port', '0', '--log-level', 'warn'];
}

/** A first start builds its named backfill before it listens; slow on a busy shared core. */
const START_TIMEOUT_MS = 900_000;
export const METRICS_AND_LISTENING =
  /metrics on (?<metrics>\S+)[\s\S]*?listening on (?<url>http:\/\/\S+)/;

/** The bare `node:http` hello-world alone on core 0, printed under `label`. */
async function measureBaseline(label: string) {
  const hello = await spawnPinned(['--import', 'tsx', HELLO]);
  const baseline = await measure(hello, `${hello.url}/`).finally(() => hello.stop());
  console.log(
    `${describeLoad(label, baseline.result)}; CPU ${baseline.cpuMicros.toFixed(0)} µs/request`,
  );
  return baseline;
}

/**
 * The default start's ratios against the mean of the baselines before and after it: this
 * machine's speed drifts over minutes (the same hello-world read 89k and 121k req/s three
 * minutes apart, 2026-12-01), so one reading before the run moves every ratio with it.
 */
function againstBoth(
  use: Awaited<ReturnType<typeof measureUse>>,
  before: LoadResult,
  after: LoadResult,
): string {
  const mean = (before.requestsPerSecond + after.requestsPerSecond) / 2;
  const windows = Object.entries(use).map(
    ([name, result]) => `${name} ${ratio(result.requestsPerSecond, mean)}`,
  );
  return `ratios vs the mean of both baselines (${mean.toFixed(0)} req/s): ${windows.join(', ')}`;
}

/**
 * The baseline runs alone on core 0 before the server starts, and again after both servers
 * stopped. Then the default start with the simulator: the first minute, steady state and mixed
 * load (pinned-use.ts), then the issue-18 reads with the simulator polling (its ingest shares
 * core 0 with the reads); then the same book restarted with `--source none` (the read path
 * alone). "server CPU" is the server
 * process's CPU time over the measurement divided by the requests served, so it holds under a
 * busy machine.
 */
export async function benchPinnedReads(): Promise<void> {
  pinSelf(LOAD_CORE);
  if (!canPin()) console.log('(fewer than 2 cores or no taskset: nothing pinned)');
  const dataDir = mkdtempSync(join(tmpdir(), 'pricing-pinned-'));
  const key = prepareBenchAccount(dataDir);
  try {
    const baseline = await measureBaseline('baseline bare node:http hello-world');
    let use: Awaited<ReturnType<typeof measureUse>>;
    popularPricingPaths(); // the catalogs build here, before the spawn, not during the first minute
    const spawnedAt = performance.now();
    const live = await spawnPinned(
      defaultStartArgs(dataDir),
      SERVER_CORE,
      METRICS_AND_LISTENING,
      START_TIMEOUT_MS,
    );
    try {
      await waitForPrices(`${live.url}${Object.values(PINNED_PATHS)[0]}`, key);
      use = await measureUse(
        { server: live, metricsUrl: live.metricsUrl!, spawnedAt, key },
        baseline.result,
      );
      await readPhase('simulator running', live, key, baseline);
    } finally {
      await live.stop();
    }
    const quiet = await spawnPinned(serveArgs(dataDir, 'none'));
    try {
      await waitForPrices(`${quiet.url}${Object.values(PINNED_PATHS)[0]}`, key);
      await new Promise((r) => setTimeout(r, QUIET_SETTLE_MS));
      await readPhase('quiet book', quiet, key, baseline);
    } finally {
      await quiet.stop();
    }
    const after = await measureBaseline('baseline again, after the servers');
    console.log(againstBoth(use, baseline.result, after.result));
  } finally {
    unpinSelf();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
