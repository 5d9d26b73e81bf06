/**
 * The issue-26 figures of `npm run bench -- pinned`: the default `npm start` server (default
 * backfill) pinned to core 0 with all its threads, measured as a new user meets it. Pricing
 * over the simulator's 50 most popular CS2 items during the first minute (first polling wave,
 * bulk builds and the first backfill running) and in steady state; the same load while one
 * client pulls `/v1/items/all` (gzip) once a second; `/v1/items/all` alone while prices move;
 * and the longest event-loop stall of each window, read from the server's own monitor
 * (`nodejs_eventloop_lag_max_seconds` on the operator listener, reset by every scrape), split
 * into what the thread held and what it waited for the core (`pricing_event_loop_late_turn_seconds`).
 */
import { request } from 'node:http';
import { loadCatalogs } from '../src/catalog/index.ts';
import { buildSimGame } from '../src/markets/sim/items.ts';
import { parseSamples, total } from '../src/metrics/test-support.ts';
import { describeLoad, load, ratio, type ChildServer, type LoadResult } from './harness.ts';
import { cpuByRole, describeRoles, threadTimes } from './thread-cpu.ts';

/** Seed of the default start (config.ts), so the ranks are the running simulator's. */
const DEFAULT_SEED = 42;
const POPULAR_COUNT = 50;
/** The first minute is counted from the spawn; its load runs at least this long. */
const FIRST_MINUTE_MS = 60_000;
const MIN_FIRST_WINDOW_S = 20;
/** Steady: this long after the spawn, and after the backfill finished plus a settle. */
const STEADY_AFTER_MS = 75_000;
const SETTLE_AFTER_BACKFILL_MS = 15_000;
const BACKFILL_CAP_MS = 600_000;
const MIXED_SECONDS = 10;
/** The steady window without requests: what the simulator, ingest and builds take per second. */
const BACKGROUND_MS = 20_000;

/** Pricing paths of the simulator's most popular CS2 items (the same ranks the server uses). */
export function popularPricingPaths(): string[] {
  const catalogs = loadCatalogs();
  return buildSimGame(DEFAULT_SEED, 'cs2', catalogs.cs2.items)
    .items.slice(0, POPULAR_COUNT)
    .map((item) => `/v1/pricing/${encodeURIComponent(item.name)}`);
}

/** The live server: its API and operator URLs and when it was spawned. */
export interface UsedServer {
  server: ChildServer;
  metricsUrl: string;
  spawnedAt: number;
  key: string;
}

const LAG = 'nodejs_eventloop_lag_max_seconds';
const LATE_TURN = 'pricing_event_loop_late_turn_seconds';
const scrape = async (metricsUrl: string) => parseSamples(await (await fetch(metricsUrl)).text());
const ms = (seconds: number | null) => (seconds === null ? Number.NaN : seconds * 1000);

/** Longest event-loop stall since the previous call, ms (the scrape resets the monitor). */
export async function longestStallMs(metricsUrl: string): Promise<number> {
  return ms(total(await scrape(metricsUrl), LAG));
}

/**
 * The same scrape's stall, and where Linux lets the server split it (LATE_TURN), what the
 * thread held and what it waited for a core, in the longest stall and in the turn held longest.
 */
async function stallReport(metricsUrl: string): Promise<string> {
  const samples = await scrape(metricsUrl);
  const stall = `longest event-loop stall ${ms(total(samples, LAG)).toFixed(1)} ms`;
  const part = (turn: string, which: string) => total(samples, LATE_TURN, { turn, part: which });
  if (part('longest_stall', 'held') === null) return stall;
  const turn = (name: string) => {
    const [held, waited] = [ms(part(name, 'held')), ms(part(name, 'waited'))];
    return `${(held + waited).toFixed(1)} ms (${held.toFixed(1)} held, ${waited.toFixed(1)} waiting for the core)`;
  };
  return `${stall}; longest late turn ${turn('longest_stall')}, turn held longest ${turn('longest_hold')}`;
}

/** Seconds from the spawn to the backfill's closing progress line, null while it runs. */
export function watchBackfill(used: Pick<UsedServer, 'server' | 'spawnedAt'>) {
  let seconds: number | null = null;
  let notify = () => {};
  const finished = new Promise<void>((resolve) => (notify = resolve));
  used.server.child.stderr!.on('data', (chunk: Buffer) => {
    if (seconds === null && /backfill .*observations stored/.test(chunk.toString())) {
      seconds = (performance.now() - used.spawnedAt) / 1000;
      notify();
    }
  });
  return { seconds: () => seconds, finished };
}

/** ms from request to the last byte of a gzip-encoded `/v1/items/all`. */
export function timedItemsAll(url: string, key: string): Promise<number> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const headers = { authorization: `ApiKey ${key}`, 'accept-encoding': 'gzip' };
    request(`${url}/v1/items/all`, { headers }, (response) => {
      response.resume();
      response.on('end', () => {
        if (response.statusCode !== 200) reject(new Error(`items/all ${response.statusCode}`));
        else resolve(performance.now() - started);
      });
    })
      .on('error', reject)
      .end();
  });
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
};

/** Pulls `/v1/items/all` once a second until `stop` resolves; the times taken. */
export async function pullEverySecond(
  url: string,
  key: string,
  stop: Promise<unknown>,
): Promise<number[]> {
  let stopped = false;
  void stop.then(() => (stopped = true));
  const times: number[] = [];
  while (!stopped) {
    const started = performance.now();
    times.push(await timedItemsAll(url, key));
    await new Promise((r) => setTimeout(r, Math.max(0, 1000 - (performance.now() - started))));
  }
  return times;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, Math.max(0, ms)));

function describeUse(label: string, result: LoadResult, baseline: LoadResult): string {
  const base = ratio(result.requestsPerSecond, baseline.requestsPerSecond);
  return `${describeLoad(label, result)}, max ${result.maxMs} ms; ratio vs node:http ${base}`;
}

const pricingLabel = (when: string) =>
  `GET /v1/pricing/:name, ${POPULAR_COUNT} popular items, ${when}`;

/**
 * The first minute, steady state, mixed load and items/all alone, in that order, on a server
 * `used` spawned at `spawnedAt` that serves its first prices now.
 */
export async function measureUse(
  used: UsedServer,
  baseline: LoadResult,
): Promise<Record<'first' | 'steady' | 'mixed', LoadResult>> {
  const paths = popularPricingPaths();
  const headers = { Authorization: `ApiKey ${used.key}` };
  const backfill = watchBackfill(used);
  const sinceSpawn = () => performance.now() - used.spawnedAt;
  const firstFrom = sinceSpawn() / 1000;
  await longestStallMs(used.metricsUrl);
  const firstSeconds = Math.max(
    MIN_FIRST_WINDOW_S,
    Math.round((FIRST_MINUTE_MS - sinceSpawn()) / 1000),
  );
  const first = await load(used.server.url, { paths, headers, seconds: firstSeconds });
  const firstStall = await stallReport(used.metricsUrl);
  const firstTo = sinceSpawn() / 1000;
  const state = backfill.seconds() === null ? 'running at its end' : 'finished';
  const window = `${firstFrom.toFixed(0)}–${firstTo.toFixed(0)} s after spawn, backfill ${state}`;
  console.log(
    `${describeUse(pricingLabel(`first minute (${window})`), first, baseline)}; ${firstStall}`,
  );

  await Promise.race([backfill.finished, sleep(BACKFILL_CAP_MS)]);
  const done = backfill.seconds();
  console.log(
    done === null
      ? `backfill still running ${BACKFILL_CAP_MS / 1000} s after spawn`
      : `first backfill finished ${done.toFixed(0)} s after spawn`,
  );
  await sleep(Math.max(STEADY_AFTER_MS - sinceSpawn(), SETTLE_AFTER_BACKFILL_MS));
  const pid = used.server.child.pid!;
  await longestStallMs(used.metricsUrl);
  const quietFrom = threadTimes(pid);
  await sleep(BACKGROUND_MS);
  const background = cpuByRole(pid, quietFrom, threadTimes(pid));
  console.log(
    `steady, no requests, ${BACKGROUND_MS / 1000} s: server CPU by thread ${describeRoles(background, BACKGROUND_MS / 1000, 'µs per second')}; ${await stallReport(used.metricsUrl)}`,
  );
  await load(used.server.url, { paths, headers, seconds: 2 });
  await longestStallMs(used.metricsUrl);
  const steadyFromTimes = threadTimes(pid);
  const steady = await load(used.server.url, { paths, headers });
  const steadyRoles = cpuByRole(pid, steadyFromTimes, threadTimes(pid));
  const steadyStall = await stallReport(used.metricsUrl);
  const steadyFrom = (sinceSpawn() / 1000 - 8).toFixed(0);
  console.log(
    `${describeUse(pricingLabel(`steady (from ${steadyFrom} s)`), steady, baseline)}; ${steadyStall}`,
  );
  console.log(
    `steady, server CPU by thread: ${describeRoles(steadyRoles, steady.requestsPerSecond * 8, 'µs/request')}`,
  );
  console.log(
    `first minute vs steady: throughput ratio ${ratio(first.requestsPerSecond, steady.requestsPerSecond)}, p99 ${first.p99Ms} ms vs ${steady.p99Ms} ms`,
  );

  const mixedLoad = load(used.server.url, { paths, headers, seconds: MIXED_SECONDS });
  const pulls = pullEverySecond(used.server.url, used.key, mixedLoad);
  const mixed = await mixedLoad;
  const pulled = await pulls;
  const mixedStall = await stallReport(used.metricsUrl);
  const mixedLabel = pricingLabel('+ one client pulling /v1/items/all (gzip) each second');
  console.log(
    `${describeUse(mixedLabel, mixed, baseline)}; throughput vs steady ${ratio(mixed.requestsPerSecond, steady.requestsPerSecond)}; items/all median ${median(pulled).toFixed(1)} ms over ${pulled.length} pulls; ${mixedStall}`,
  );

  const alone: number[] = [];
  for (let call = 0; call < 5; call += 1) {
    alone.push(await timedItemsAll(used.server.url, used.key));
    await sleep(1000);
  }
  console.log(
    `GET /v1/items/all (gzip) while prices move, 5 calls a second apart: median ${median(alone).toFixed(1)} ms (max ${Math.max(...alone).toFixed(1)} ms); ${await stallReport(used.metricsUrl)}`,
  );
  return { first, steady, mixed };
}
