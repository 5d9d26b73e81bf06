/**
 * Probe: the default start pinned as in `pinned`, with `--cpu-prof` (every thread) and
 * `--trace-gc`; the pricing load over the first minute, then a steady window. Prints the HTTP
 * thread's CPU per request per window; the profiles are left in PROBE_OUT for analysis.
 * PROBE_PULLER=1: one client pulls `/v1/items/all` (gzip) each second of the steady window.
 * Usage: node --import tsx bench/stall-probe.ts <outdir> [extra node flags...]
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { load } from './harness.ts';
import { prepareBenchAccount } from './http-reads.ts';
import {
  LOAD_CORE,
  METRICS_AND_LISTENING,
  PINNED_PATHS,
  SERVER_CORE,
  defaultStartArgs,
  pinSelf,
  spawnPinned,
  waitForPrices,
} from './pinned.ts';
import {
  longestStallMs,
  popularPricingPaths,
  pullEverySecond,
  watchBackfill,
} from './pinned-use.ts';
import { cpuByRole, threadTimes } from './thread-cpu.ts';

const out = process.argv[2]!;
const extra = process.argv.slice(3);
const steadySeconds = Number(process.env.PROBE_STEADY_S ?? 0);
mkdirSync(out, { recursive: true });
pinSelf(LOAD_CORE);
const dataDir = mkdtempSync(join(tmpdir(), 'pricing-probe-'));
const key = prepareBenchAccount(dataDir);
const paths = popularPricingPaths();
const headers = { Authorization: `ApiKey ${key}` };
const spawnedAt = performance.now();
const profFlags = process.env.PROBE_NO_PROF ? [] : ['--cpu-prof', '--cpu-prof-dir', out];
const args = defaultStartArgs(dataDir);
if (process.env.PROBE_BIN) args[0] = process.env.PROBE_BIN;
const server = await spawnPinned(
  [...profFlags, ...extra, ...args],
  SERVER_CORE,
  METRICS_AND_LISTENING,
  900_000,
);
const gcLog: string[] = [];
server.child.stdout!.on('data', (c: Buffer) => gcLog.push(c.toString()));
const pid = server.child.pid!;
const backfill = watchBackfill({ server, spawnedAt });
const since = () => ((performance.now() - spawnedAt) / 1000).toFixed(1);
const marks: string[] = [];
const mark = (what: string) => {
  const line = `${since()} s ${what}`;
  marks.push(line);
  console.log(line);
};
async function window(label: string, seconds: number) {
  await longestStallMs(server.metricsUrl!);
  const before = threadTimes(pid);
  mark(`${label} start`);
  const loading = load(server.url, { paths, headers, seconds });
  const puller = process.env.PROBE_PULLER && label === 'steady';
  const pulls = puller ? pullEverySecond(server.url, key, loading) : Promise.resolve([]);
  const result = await loading;
  const pulled = (await pulls).map((ms) => ms.toFixed(1)).join(', ');
  if (puller) mark(`items/all pulled (one a second from the window's start) in ${pulled} ms`);
  const roles = cpuByRole(pid, before, threadTimes(pid));
  const stall = await longestStallMs(server.metricsUrl!);
  const requests = result.requestsPerSecond * seconds;
  const http = roles.get('http (main)') ?? 0;
  const pools = roles.get('V8/libuv pools') ?? 0;
  const ingest = roles.get('pricing-ingest') ?? 0;
  mark(
    `${label} end: ${result.requestsPerSecond} req/s p99 ${result.p99Ms} max ${result.maxMs}; http ${((http * 1e6) / requests).toFixed(1)} µs/req (${http.toFixed(2)} s), pools ${pools.toFixed(2)} s, ingest ${ingest.toFixed(2)} s; stall ${stall.toFixed(1)} ms; backfill ${backfill.seconds() ?? 'running'}`,
  );
}
function cpuLine(label: string, from: ReturnType<typeof threadTimes>) {
  const roles = cpuByRole(pid, from, threadTimes(pid));
  const text = [...roles].map(([role, s]) => `${role} ${s.toFixed(2)} s`).join(', ');
  mark(`${label}: ${text}`);
}
try {
  const atListen = threadTimes(pid);
  await waitForPrices(`${server.url}${Object.values(PINNED_PATHS)[0]}`, key);
  mark('first prices');
  if (process.env.PROBE_IDLE) {
    const atPrices = threadTimes(pid);
    cpuLine('listen to first prices', atListen);
    await Promise.race([backfill.finished, new Promise((r) => setTimeout(r, 600_000))]);
    cpuLine('first prices to backfill done, no requests', atPrices);
    throw new Error('idle probe done');
  }
  await window('first', Math.max(20, Math.round(60 - Number(since()))));
  if (steadySeconds > 0) {
    await Promise.race([backfill.finished, new Promise((r) => setTimeout(r, 400_000))]);
    mark('backfill done');
    await new Promise((r) => setTimeout(r, 15_000));
    await window('steady', steadySeconds);
  }
} finally {
  await server.stop();
  writeFileSync(join(out, 'gc.log'), gcLog.join(''));
  writeFileSync(join(out, 'marks.txt'), marks.join('\n') + '\n');
  rmSync(dataDir, { recursive: true, force: true });
  process.exit(0);
}
