/**
 * Per-thread CPU of a process over a window, from /proc/<pid>/task/<tid>/stat (utime + stime,
 * proc(5) fields 14 and 15) and each thread's name (`comm`; the ingest thread names itself).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';

const CLOCK_TICKS = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout) || 100;

export type ThreadTimes = Map<string, { name: string; seconds: number }>;

function threadSeconds(pid: number, tid: string): { name: string; seconds: number } | null {
  try {
    const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
    const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
    const fields = stat.slice(stat.lastIndexOf(') ') + 2).split(' ');
    return { name, seconds: (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS };
  } catch {
    return null;
  }
}

/** CPU seconds per thread id of `pid` now. */
export function threadTimes(pid: number): ThreadTimes {
  const times: ThreadTimes = new Map();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    const read = threadSeconds(pid, tid);
    if (read) times.set(tid, read);
  }
  return times;
}

/**
 * CPU seconds per thread role between two readings: the main (HTTP) thread, threads that
 * named themselves, and the rest together (V8's platform workers for GC and compilation of
 * every isolate, libuv's pool for gzip and file I/O).
 */
export function cpuByRole(pid: number, before: ThreadTimes, after: ThreadTimes) {
  const roles = new Map<string, number>();
  for (const [tid, now] of after) {
    const used = now.seconds - (before.get(tid)?.seconds ?? 0);
    const role =
      tid === String(pid) ? 'http (main)' : now.name === 'node' ? 'V8/libuv pools' : now.name;
    roles.set(role, (roles.get(role) ?? 0) + used);
  }
  return roles;
}

export function describeRoles(roles: Map<string, number>, divisor: number, unit: string): string {
  return (
    [...roles]
      .sort((a, b) => b[1] - a[1])
      .map(([role, seconds]) => `${role} ${((seconds * 1e6) / divisor).toFixed(1)}`)
      .join(', ') + ` ${unit}`
  );
}
