/**
 * Restart of the default server (`pricing serve --source sim`, default backfill) on a data dir
 * left by a first start: time from spawn to first prices and the `boot steps (ms)` line of the
 * restarted process, after a clean stop (SIGTERM once the backfill finished) and after a
 * SIGKILL halfway through the popular-band backfill; for the first start's band and the band a
 * restart resumes, the peak resident memory and the latency of reads made meanwhile.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnServer, type ChildServer, PRICING_BIN } from './harness.ts';
import { BENCH_ITEM } from './http-reads.ts';
import { waitForPrices } from './pinned.ts';

const BACKFILL_CAP_MS = 600_000;
/** The boot steps line is logged once the bulk payloads are built, after first prices. */
const STEPS_CAP_MS = 120_000;
const CLOCK_TICKS = 100;

/** CPU seconds (user + system) of one /proc stat file; proc(5) fields 14 and 15. */
export function cpuSeconds(statPath: string): number {
  const fields = readFileSync(statPath, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
}

interface Started {
  server: ChildServer;
  seconds: number;
  /** CPU seconds at first prices: the main (HTTP) thread, and every thread of the process. */
  mainCpu: number;
  processCpu: number;
  output: () => string;
}

const demoKey = (dataDir: string) => readFileSync(join(dataDir, 'demo-key.txt'), 'utf8').trim();

async function startToPrices(dataDir: string): Promise<Started> {
  const started = performance.now();
  const args = [PRICING_BIN, 'serve', '--port', '0', '--data', dataDir, '--source', 'sim'];
  const server = await spawnServer(args, 600_000);
  let output = '';
  const collect = (chunk: Buffer) => (output += chunk.toString());
  server.child.stdout!.on('data', collect);
  server.child.stderr!.on('data', collect);
  const key = demoKey(dataDir);
  const url = `${server.url}/v1/pricing/${encodeURIComponent(BENCH_ITEM)}`;
  await waitForPrices(url, key, 600_000);
  const seconds = (performance.now() - started) / 1000;
  const pid = server.child.pid!;
  const mainCpu = cpuSeconds(`/proc/${pid}/task/${pid}/stat`);
  const processCpu = cpuSeconds(`/proc/${pid}/stat`);
  return { server, seconds, mainCpu, processCpu, output: () => output };
}

/** Resolves once the output matches `pattern` (checked every 200 ms), or after `capMs`. */
/** Waits until the output matches (a pattern, or a test of the whole output), at most `capMs`. */
async function waitForOutput(
  started: Started,
  pattern: RegExp | ((output: string) => boolean),
  capMs: number,
) {
  const matches = () =>
    typeof pattern === 'function' ? pattern(started.output()) : pattern.test(started.output());
  const from = performance.now();
  while (!matches() && performance.now() - from < capMs) {
    await new Promise((r) => setTimeout(r, 200));
  }
  return matches();
}

interface BandWatch {
  seconds: number;
  finished: boolean;
  /** Latencies (ms) of keyless market health and a keyed pricing read, one each a second. */
  health: number[];
  pricing: number[];
  peakRssMb: number;
}

function rssMb(pid: number): number {
  try {
    const kb = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return Number(kb ?? 0) / 1024;
  } catch {
    return 0;
  }
}

async function timed(url: string, headers: Record<string, string> = {}): Promise<number | null> {
  const from = performance.now();
  try {
    const response = await fetch(url, { headers });
    await response.arrayBuffer();
    return response.ok ? performance.now() - from : null;
  } catch {
    return null;
  }
}

/**
 * From first prices until the popular band is stored (or the cap): a keyless health read and a
 * keyed pricing read every second (health is limited to 60 a minute per IP), and the resident
 * memory of the whole process.
 */
async function watchBand(started: Started, key: string): Promise<BandWatch> {
  const from = performance.now();
  const watch: BandWatch = { seconds: 0, finished: false, health: [], pricing: [], peakRssMb: 0 };
  const pricing = `${started.server.url}/v1/pricing/${encodeURIComponent(BENCH_ITEM)}`;
  while (performance.now() - from < BACKFILL_CAP_MS) {
    const health = await timed(`${started.server.url}/v1/markets/health`);
    if (health !== null) watch.health.push(health);
    const priced = await timed(pricing, { Authorization: `ApiKey ${key}` });
    if (priced !== null) watch.pricing.push(priced);
    watch.peakRssMb = Math.max(watch.peakRssMb, rssMb(started.server.child.pid!));
    if (/observations stored/.test(started.output())) {
      watch.finished = true;
      break;
    }
    await new Promise((r) => setTimeout(r, 1000));
  }
  watch.seconds = (performance.now() - from) / 1000;
  return watch;
}

function percentile(values: readonly number[], share: number): string {
  if (values.length === 0) return '-';
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))]!.toFixed(0);
}

function printBand(label: string, watch: BandWatch): void {
  const reads = (values: number[]) =>
    `p50 ${percentile(values, 0.5)} ms, p99 ${percentile(values, 0.99)} ms (${values.length} reads)`;
  console.log(
    `  ${label}: popular band ${watch.finished ? 'stored' : 'not stored'} ${watch.seconds.toFixed(0)} s after first prices; ` +
      `peak RSS ${watch.peakRssMb.toFixed(0)} MB; keyless health ${reads(watch.health)}; ` +
      `keyed pricing ${reads(watch.pricing)}`,
  );
}

function bootStepsLine(output: string): string {
  const line = output.split('\n').find((text) => text.includes('boot steps (ms)'));
  if (!line) return '(no boot steps line)';
  try {
    const { msg: _msg, level: _l, time: _t, pid: _p, hostname: _h, ...steps } = JSON.parse(line);
    return JSON.stringify(steps);
  } catch {
    return line;
  }
}

async function stopAndRestart(dataDir: string, label: string, band = false): Promise<void> {
  const restart = await startToPrices(dataDir);
  const watch = band ? await watchBand(restart, demoKey(dataDir)) : null;
  await waitForOutput(restart, /boot steps \(ms\)/, STEPS_CAP_MS);
  console.log(`restart to first prices (${label}): ${restart.seconds.toFixed(1)} s`);
  if (watch) printBand('the resumed band', watch);
  console.log(
    `  CPU at first prices: main thread ${restart.mainCpu.toFixed(2)} s, all threads ${restart.processCpu.toFixed(2)} s`,
  );
  console.log(`  boot steps (ms): ${bootStepsLine(restart.output())}`);
  await restart.server.stop();
}

/** First start, wait for the backfill to finish, SIGTERM, restart. */
async function cleanStop(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'pricing-restart-'));
  try {
    const first = await startToPrices(dataDir);
    console.log(`first start to first prices: ${first.seconds.toFixed(1)} s`);
    printBand('first start', await watchBand(first, demoKey(dataDir)));
    await waitForOutput(first, /boot steps \(ms\)/, STEPS_CAP_MS);
    console.log(`  boot steps (ms): ${bootStepsLine(first.output())}`);
    await first.server.stop();
    await stopAndRestart(dataDir, 'after SIGTERM, backfill finished');
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** First start, SIGKILL once the popular band is about `percent` done, restart. */
async function killedMidBackfill(percent = 40): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'pricing-restart-'));
  try {
    const first = await startToPrices(dataDir);
    // The progress line shows the percentage it reached, which may be past a round 10%.
    const reached = (output: string) =>
      [...output.matchAll(/backfill .*popular.* (\d+)%/g)].some((m) => Number(m[1]) >= percent);
    const killedAt = (await waitForOutput(first, reached, BACKFILL_CAP_MS)) ? '' : ' (not reached)';
    first.server.child.kill('SIGKILL');
    await new Promise((r) => first.server.child.once('exit', r));
    await stopAndRestart(
      dataDir,
      `after SIGKILL at ${percent}%${killedAt} of the popular-band backfill`,
      true,
    );
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export async function benchRestart(): Promise<void> {
  await cleanStop();
  await killedMidBackfill();
}
