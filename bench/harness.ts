/** Shared benchmark plumbing: child servers, autocannon runs, and ratio reporting. */
import autocannon from 'autocannon';
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface LoadResult {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  errors: number;
  non2xx: number;
}

export interface ChildServer {
  url: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

/** Spawns `node <args>` and resolves with the URL from its `listening on` line. */
export function spawnServer(
  args: string[],
  timeoutMs = 180_000,
  env: NodeJS.ProcessEnv = embeddedEnv(),
  ready: RegExp = /listening on (http:\/\/\S+)/,
): Promise<ChildServer> {
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'], env });
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no listening line:\n${output}`)), timeoutMs);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = ready.exec(output);
      if (!match) return;
      clearTimeout(timer);
      resolve({
        url: match[1] ?? '',
        child,
        stop: () =>
          new Promise((done) => {
            child.once('exit', () => done());
            child.kill('SIGTERM');
          }),
      });
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`server exited ${code}:\n${output}`)));
  });
}

/** The environment without DATABASE_URL / REDIS_URL: the embedded default deployment. */
export function embeddedEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  delete env.DATABASE_URL;
  delete env.REDIS_URL;
  return env;
}

export async function load(
  url: string,
  options: {
    connections?: number;
    seconds?: number;
    headers?: Record<string, string>;
    /** Paths each connection requests in turn (default: `url`'s own). */
    paths?: readonly string[];
  } = {},
): Promise<LoadResult> {
  const result = await autocannon({
    url,
    connections: options.connections ?? 50,
    duration: options.seconds ?? 8,
    headers: options.headers ?? {},
    ...(options.paths ? { requests: options.paths.map((path) => ({ path })) } : {}),
  });
  return {
    requestsPerSecond: Math.round(result.requests.average),
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    maxMs: result.latency.max,
    errors: result.errors,
    non2xx: result.non2xx,
  };
}

export function describeLoad(label: string, result: LoadResult): string {
  return (
    `${label}: ${result.requestsPerSecond} req/s, p50 ${result.p50Ms} ms, p99 ${result.p99Ms} ms` +
    (result.errors || result.non2xx ? `, errors ${result.errors}, non-2xx ${result.non2xx}` : '')
  );
}

export function ratio(value: number, baseline: number): string {
  return baseline > 0 ? (value / baseline).toFixed(2) : 'n/a';
}

/** Bytes a process has caused to be written to storage (`write_bytes` of /proc/<pid>/io). */
export function writtenBytes(pid: number | 'self'): number {
  const io = readFileSync(`/proc/${pid}/io`, 'utf8');
  return Number(/write_bytes:\s+(\d+)/.exec(io)?.[1] ?? 0);
}

/** Bytes this process passed to write calls (`wchar`) and caused to be written to the device. */
export function selfIo(): { wchar: number; written: number } {
  const text = readFileSync('/proc/self/io', 'utf8');
  const field = (name: string) => Number(new RegExp(`^${name}: (\\d+)$`, 'm').exec(text)?.[1] ?? 0);
  return { wchar: field('wchar'), written: field('write_bytes') };
}

/** Bytes in decimal megabytes, one decimal. */
export const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;

/** Bytes written over `hours` of a model, as decimal gigabytes a day. */
export const gbADay = (bytes: number, hours: number) =>
  `${((bytes * 24) / hours / 1e9).toFixed(3)} GB a day`;

/** The CLI the benches start servers with. */
export const PRICING_BIN = join(import.meta.dirname, '..', 'bin', 'pricing.js');
