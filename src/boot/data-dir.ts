/**
 * Files of one data directory, and the server lock: a running server writes its pid to
 * `server.lock` so that commands that must not run beside it (import) can refuse clearly.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

export interface DataPaths {
  dir: string;
  prices: string;
  access: string;
  inventory: string;
  alerts: string;
  demoKey: string;
  lock: string;
}

export function dataPaths(dir: string): DataPaths {
  const root = resolve(dir);
  return {
    dir: root,
    prices: join(root, 'prices.db'),
    access: join(root, 'access.db'),
    inventory: join(root, 'inventory.db'),
    alerts: join(root, 'alerts.db'),
    demoKey: join(root, 'demo-key.txt'),
    lock: join(root, 'server.lock'),
  };
}

export function ensureDataDir(paths: DataPaths): void {
  mkdirSync(paths.dir, { recursive: true });
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The pid of a live server holding this data dir, or null (a stale lock is ignored). */
export function runningServerPid(paths: DataPaths): number | null {
  let text: string;
  try {
    text = readFileSync(paths.lock, 'utf8');
  } catch {
    return null;
  }
  const pid = Number(JSON.parse(text).pid);
  return Number.isInteger(pid) && pid !== process.pid && processAlive(pid) ? pid : null;
}

export function acquireServerLock(paths: DataPaths, port: number): () => void {
  const other = runningServerPid(paths);
  if (other !== null) {
    throw new Error(`another server (pid ${other}) is already serving ${paths.dir}`);
  }
  writeFileSync(paths.lock, JSON.stringify({ pid: process.pid, port }));
  return () => rmSync(paths.lock, { force: true });
}
