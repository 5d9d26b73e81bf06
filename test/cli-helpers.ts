/**
 * Runs the real `pricing` CLI in child processes for end-to-end tests, or an admin command in
 * this process (runInProcess) where the binary's start is not what a test is about. Commands get
 * the test runner's environment WITHOUT DATABASE_URL and REDIS_URL (CI sets both for the suites
 * that need the servers; the embedded end-to-end tests must not move onto them) unless a test
 * passes its own `env`.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { useCatalogCache } from '../src/catalog/load-catalogs.ts';
import { runPricing } from '../src/cli/main.ts';

export const BIN = join(import.meta.dirname, '..', 'bin', 'pricing.js');

/**
 * The catalog a server gets when its catalog's size is not what a test is about: 300 items of
 * each game, every category's most popular in turn, and the docs' examples. A first start on
 * it had taken 2.5 s of CPU 20 s after listening (3.7 s with a 50-item simulation), against 5.2
 * and 8.1 s on the whole catalogs (their schema log, snapshot and bulk payloads).
 */
export const CATALOG_CUT_ITEMS = 300;
export const CATALOG_CUT = ['--catalog-items', String(CATALOG_CUT_ITEMS)];

export function tempDataDir(): string {
  return mkdtempSync(join(tmpdir(), 'pricing-e2e-'));
}

/** The environment for children: embedded defaults plus whatever `extra` sets. */
export function childEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  delete env.DATABASE_URL;
  delete env.REDIS_URL;
  return { ...env, ...extra };
}

/**
 * Hang guards only: a CLI command or a server start takes seconds, but many times longer on a
 * machine whose cores are busy with other work, and a guard must not turn that into a failure.
 */
const CLI_GIVE_UP_MS = 180_000;
const START_GIVE_UP_MS = 240_000;

export function runCli(args: string[], env: NodeJS.ProcessEnv = childEnv()): CliResult {
  const result = spawnSync(process.execPath, [BIN, ...args], {
    encoding: 'utf8',
    timeout: CLI_GIVE_UP_MS,
    env,
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

function collector(append: (text: string) => void): Writable {
  return new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      append(chunk.toString());
      done();
    },
  });
}

/**
 * An admin command (accounts, keys, alerts, games, import, replay) through the binary's dispatch
 * (src/cli/main.ts) in this process: the same exit code and output as `runCli` without a
 * process start per call (Node, tsx and the command's modules: 0.7 s of CPU for `keys list`).
 */
export async function runInProcess(args: string[], env = childEnv()): Promise<CliResult> {
  // The commands that load the catalogs (import, markets, replay) read the run's cache.
  const cacheDir = process.env.PRICING_CATALOG_CACHE_DIR;
  if (cacheDir) useCatalogCache({ dir: cacheDir, warn: (message) => console.warn(message) });
  let stdout = '';
  let stderr = '';
  const io = {
    stdout: collector((text) => (stdout += text)),
    stderr: collector((text) => (stderr += text)),
    env,
  };
  const code = await runPricing(args, io);
  return { code, stdout, stderr };
}

export interface RunningServer {
  child: ChildProcess;
  baseUrl: string;
  output: () => string;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

export interface StartOptions {
  timeoutMs?: number;
  env?: NodeJS.ProcessEnv;
  /** What the child prints once it is up (default: the HTTP roles' listening line). */
  ready?: RegExp;
}

const LISTENING = /listening on (http:\/\/[^\s]+)/;

/**
 * Starts `pricing serve` on a free port and resolves once it prints its ready line; `baseUrl`
 * is the listening URL (empty for the ingest role).
 */
export function startServer(
  args: string[],
  options: StartOptions | number = {},
): Promise<RunningServer> {
  const {
    timeoutMs = START_GIVE_UP_MS,
    env = childEnv(),
    ready = LISTENING,
  } = typeof options === 'number' ? { timeoutMs: options } : options;
  const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env,
  });
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`server did not start in time:\n${output}`));
    }, timeoutMs);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (!ready.test(output)) return;
      clearTimeout(timer);
      child.stdout!.off('data', onData);
      child.stderr!.off('data', onData);
      child.stdout!.on('data', (more: Buffer) => (output += more.toString()));
      child.stderr!.on('data', (more: Buffer) => (output += more.toString()));
      resolve({
        child,
        baseUrl: LISTENING.exec(output)?.[1] ?? '',
        output: () => output,
        stop: (signal = 'SIGTERM') =>
          new Promise((done) => {
            if (child.exitCode !== null || child.signalCode !== null) return done(child.exitCode);
            child.once('exit', (code) => done(code));
            child.kill(signal);
          }),
      });
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}:\n${output}`));
    });
  });
}
