/**
 * The default `npm start` server as a new user runs it (`pricing serve --source sim`, default
 * backfill, full catalogs, nothing pinned): time from spawn to first prices on an empty data
 * dir and on restart, time to the end of the backfill (it runs beside live ingest), RSS steady
 * (two minutes after the backfill) and peak (VmHWM, backfill included), bytes written to storage
 * projected to a day (/proc/<pid>/io `write_bytes`, see proc(5)), and `/v1/items/all` latency
 * with gzip. The first start's threads report their V8 heaps (bench/thread-heaps.mjs), and its
 * RSS is sampled every 2 s: the steady RSS and the largest sample are split per component
 * (bench/rss-parts.ts).
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  embeddedEnv,
  spawnServer,
  writtenBytes,
  type ChildServer,
  PRICING_BIN,
} from './harness.ts';
import { BENCH_ITEM } from './http-reads.ts';
import { componentsLine, smapsKinds, threadHeapsAt, type SmapsKinds } from './rss-parts.ts';
import { waitForPrices } from './pinned.ts';

const THREAD_HEAPS = join(import.meta.dirname, 'thread-heaps.mjs');
const DAY_S = 86_400;
/** How long the steady window waits for the first start's backfill to finish. */
const BACKFILL_CAP_S = 600;

interface ProcFigures {
  rssBytes: number;
  peakBytes: number;
  writeBytes: number;
}

function procFigures(pid: number): ProcFigures {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  const writeBytes = writtenBytes(pid);
  return { rssBytes: kb('VmRSS') * 1024, peakBytes: kb('VmHWM') * 1024, writeBytes };
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;

/** Bytes of every file under `dir` (what the data dir holds, as opposed to what was written). */
function dirBytes(dir: string): number {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) total += statSync(join(entry.parentPath, entry.name)).size;
  }
  return total;
}

/** The backfill's closing progress line: seconds from `started` to it, null while it runs. */
function watchBackfill(server: ChildServer, started: number) {
  let seconds: number | null = null;
  let notify = () => {};
  const finished = new Promise<void>((resolve) => (notify = resolve));
  server.child.stderr!.on('data', (chunk: Buffer) => {
    if (seconds === null && /backfill .*observations stored/.test(chunk.toString())) {
      seconds = (performance.now() - started) / 1000;
      notify();
    }
  });
  return { seconds: () => seconds, finished };
}

/** Waits for `promise` at most `ms`. */
const within = (promise: Promise<void>, ms: number) =>
  Promise.race([promise, new Promise<void>((resolve) => setTimeout(resolve, ms).unref())]);

/** The server's environment; with `heapsFile`, its threads sample their heaps into it. */
function serverEnv(heapsFile: string | null): NodeJS.ProcessEnv {
  const env = embeddedEnv();
  if (heapsFile === null) return env;
  const preload = `--import ${pathToFileURL(THREAD_HEAPS).href}`;
  return {
    ...env,
    NODE_OPTIONS: [env.NODE_OPTIONS, preload].filter(Boolean).join(' '),
    THREAD_HEAPS_FILE: heapsFile,
  };
}

/** The largest RSS sampled every few seconds, with its mappings by kind, and when. */
interface LargestSample {
  rssBytes: number;
  at: number;
  kinds: SmapsKinds;
}

const SAMPLE_EVERY_MS = 2_000;

/** Samples the RSS of `pid` until stopped; keeps the largest sample's composition. */
function sampleLargest(pid: number) {
  let largest: LargestSample | null = null;
  const timer = setInterval(() => {
    const { rssBytes } = procFigures(pid);
    if (largest !== null && rssBytes <= largest.rssBytes) return;
    largest = { rssBytes, at: Date.now(), kinds: smapsKinds(pid) };
  }, SAMPLE_EVERY_MS);
  return {
    stop() {
      clearInterval(timer);
      return largest;
    },
  };
}

/** The largest V8 heap each thread reported, from its samples. */
function largestHeaps(heapsFile: string, at: number): string {
  const heaps = threadHeapsAt(heapsFile, at);
  return heaps.map((line) => `${line.thread} ${line.peakMb} MB`).join(', ');
}

async function startToPrices(dataDir: string, key: () => string, heapsFile: string | null = null) {
  const started = performance.now();
  const startedAt = Date.now();
  const args = [PRICING_BIN, 'serve', '--port', '0', '--data', dataDir, '--source', 'sim'];
  const server = await spawnServer([...args, '--log-level', 'warn'], 600_000, serverEnv(heapsFile));
  const backfilled = watchBackfill(server, started);
  const pricing = `${server.url}/v1/pricing/${encodeURIComponent(BENCH_ITEM)}`;
  await waitForPrices(pricing, key(), 600_000);
  return { server, seconds: (performance.now() - started) / 1000, backfilled, startedAt };
}

/** ms from request to the last byte of a gzip-encoded /v1/items/all. */
function timedItemsAll(url: string, key: string): Promise<{ ms: number; bytes: number }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const headers = { authorization: `ApiKey ${key}`, 'accept-encoding': 'gzip' };
    request(url, { headers }, (response) => {
      let bytes = 0;
      response.on('data', (chunk: Buffer) => (bytes += chunk.length));
      response.on('end', () => {
        if (response.statusCode !== 200) reject(new Error(`items/all ${response.statusCode}`));
        else resolve({ ms: performance.now() - started, bytes });
      });
    })
      .on('error', reject)
      .end();
  });
}

async function itemsAllLatency(server: ChildServer, key: string): Promise<string> {
  const times: number[] = [];
  let bytes = 0;
  for (let attempt = 0; attempt < 21; attempt += 1) {
    const timed = await timedItemsAll(`${server.url}/v1/items/all`, key);
    if (attempt > 0) times.push(timed.ms);
    bytes = timed.bytes;
  }
  times.sort((a, b) => a - b);
  const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))]!;
  return `${(bytes / 1024).toFixed(0)} kB gzip; p50 ${at(0.5).toFixed(1)} ms, p90 ${at(0.9).toFixed(1)} ms (20 requests one at a time)`;
}

/**
 * RSS is read two minutes after first prices (`settleSeconds` + `windowSeconds`); disk writes
 * are counted over the last `windowSeconds`, after the first polling wave has settled.
 */
export async function benchFootprint(settleSeconds = 60, windowSeconds = 60): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'pricing-footprint-'));
  const demoKey = () => readFileSync(join(dataDir, 'demo-key.txt'), 'utf8').trim();
  const heapsFile = join(mkdtempSync(join(tmpdir(), 'pricing-heaps-')), 'heaps.jsonl');
  const first = await startToPrices(dataDir, demoKey, heapsFile);
  console.log(
    `first start to first prices (empty data dir, default backfill): ${first.seconds.toFixed(1)} s`,
  );
  const pid = first.server.child.pid!;
  const largest = sampleLargest(pid);
  try {
    // Steady means after the backfill, which runs beside live ingest once prices are served.
    await within(first.backfilled.finished, BACKFILL_CAP_S * 1000);
    const backfilled = first.backfilled.seconds();
    console.log(
      backfilled === null
        ? `first start to backfill finished: still running after ${BACKFILL_CAP_S} s`
        : `first start to backfill finished (history for every backfilled item): ${backfilled.toFixed(1)} s`,
    );
    await new Promise((r) => setTimeout(r, settleSeconds * 1000));
    const windowStart = procFigures(pid);
    const sizeBefore = dirBytes(dataDir);
    await new Promise((r) => setTimeout(r, windowSeconds * 1000));
    const steady = procFigures(pid);
    const steadyAt = Date.now();
    const grown = dirBytes(dataDir) - sizeBefore;
    const after = settleSeconds + windowSeconds;
    console.log(
      `RSS ${after} s after the backfill: steady ${mb(steady.rssBytes)}, peak ${mb(steady.peakBytes)} (VmHWM, backfill included)`,
    );
    const steadyKinds = smapsKinds(pid);
    const peak = largest.stop();
    console.log(
      `RSS per component, steady: ${componentsLine(steadyKinds, threadHeapsAt(heapsFile, steadyAt))}`,
    );
    if (peak !== null) {
      const at = `${((peak.at - first.startedAt) / 1000).toFixed(0)} s after spawn`;
      console.log(
        `RSS per component at the largest sampled RSS (${mb(peak.rssBytes)}, ${at}; sampled every ${SAMPLE_EVERY_MS / 1000} s): ${componentsLine(peak.kinds, threadHeapsAt(heapsFile, peak.at))}`,
      );
    }
    console.log(`largest V8 heap per thread: ${largestHeaps(heapsFile, steadyAt)}`);
    const written = steady.writeBytes - windowStart.writeBytes;
    const perDay = (written / windowSeconds) * DAY_S;
    console.log(
      `disk written (write_bytes): ${mb(written)} in ${windowSeconds} s of steady running, ${(perDay / 1024 ** 3).toFixed(2)} GB per day projected`,
    );
    console.log(
      `data dir growth: ${mb(grown)} in ${windowSeconds} s, ${(((grown / windowSeconds) * DAY_S) / 1024 ** 3).toFixed(2)} GB per day projected`,
    );
    console.log(`GET /v1/items/all: ${await itemsAllLatency(first.server, demoKey())}`);
  } finally {
    largest.stop();
    await first.server.stop();
  }
  const restart = await startToPrices(dataDir, demoKey);
  console.log(`restart to first prices (same data dir): ${restart.seconds.toFixed(1)} s`);
  await restart.server.stop();
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(dirname(heapsFile), { recursive: true, force: true });
}
