/**
 * Restart of the default server (`pricing serve --source sim`, default backfill) on a data dir
 * left by a first start: time from spawn to first prices and the `boot steps (ms)` line of the
 * restarted process, after a clean stop (SIGTERM once the backfill finished) and after a
 * SIGKILL halfway through the popular-band backfill.
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
function cpuSeconds(statPath: string): number {
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

async function startToPrices(dataDir: string): Promise<Started> {
  const started = performance.now();
  const args = [PRICING_BIN, 'serve', '--port', '0', '--data', dataDir, '--source', 'sim'];
  const server = await spawnServer(args, 600_000);
  let output = '';
  const collect = (chunk: Buffer) => (output += chunk.toString());
  server.child.stdout!.on('data', collect);
  server.child.stderr!.on('data', collect);
  const key = readFileSync(join(dataDir, 'demo-key.txt'), 'utf8').trim();
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

async function stopAndRestart(dataDir: string, label: string): Promise<void> {
  const restart = await startToPrices(dataDir);
  await waitForOutput(restart, /boot steps \(ms\)/, STEPS_CAP_MS);
  console.log(`restart to first prices (${label}): ${restart.seconds.toFixed(1)} s`);
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
    await waitForOutput(first, /boot steps \(ms\)/, STEPS_CAP_MS);
    console.log(`  boot steps (ms): ${bootStepsLine(first.output())}`);
    const done = await waitForOutput(first, /observations stored/, BACKFILL_CAP_MS);
    if (!done) console.log('  backfill still running at the cap');
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
    );
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export async function benchRestart(): Promise<void> {
  await cleanStop();
  await killedMidBackfill();
}
