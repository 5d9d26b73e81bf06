/**
 * One test process running several test files one after another (scripts/run-tests.mjs writes
 * a module per process that calls `runGroup`). Each file runs as a suite named by its path, so
 * its results, its top-level hooks and its failures stay its own, and the next file is imported
 * only once the previous one has finished. With TEST_ACCOUNTING set, each file's CPU time
 * (this process and the children it waited for: servers, browsers) and wall time are appended
 * there, `cpu_ms<TAB>wall_ms<TAB>file` a line, and the process start as `(process start)`.
 */
import { appendFileSync, readFileSync } from 'node:fs';
import { describe } from 'node:test';
import { performance } from 'node:perf_hooks';
import { setTimeout } from 'node:timers';
import { pathToFileURL } from 'node:url';

/** CPU milliseconds of this process and its reaped children (Linux), else of this process. */
export function cpuMs() {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = fields.slice(11, 15).reduce((sum, value) => sum + Number(value), 0);
    return ticks * 10;
  } catch {
    const { user, system } = process.cpuUsage();
    return (user + system) / 1000;
  }
}

function account(cpu, wall, what) {
  const path = process.env.TEST_ACCOUNTING;
  if (path) appendFileSync(path, `${Math.round(cpu)}\t${Math.round(wall)}\t${what}\n`);
}

export async function runGroup(files) {
  account(cpuMs(), 0, '(process start)');
  for (const file of files) {
    const cpu = cpuMs();
    const wall = performance.now();
    await describe(file, async () => {
      await import(pathToFileURL(file).href);
    });
    account(cpuMs() - cpu, performance.now() - wall, file);
  }
  failIfHandlesOutlive(files);
}

/** How long a finished process may stay alive before what holds it open counts as a failure. */
const HANDLE_GRACE_MS = Number(process.env.TEST_HANDLE_GRACE_MS ?? 60_000);

/**
 * A test that leaves a server or a connection open (say, a failure before its cleanup) would
 * keep this process, and so the whole run, alive forever: after the grace, name what is still
 * open and fail instead. The timer is unref'd, so a process with nothing open exits at once.
 */
function failIfHandlesOutlive(files) {
  setTimeout(() => {
    const open = process
      ._getActiveHandles()
      .map((handle) => {
        const local = handle.address?.();
        const remote = handle.remotePort ? ` to ${handle.remoteAddress}:${handle.remotePort}` : '';
        return `${handle.constructor?.name}${local?.port ? ` on port ${local.port}` : ''}${remote}`;
      })
      .filter((text) => / on port | to /.test(text));
    console.error(`# still open ${HANDLE_GRACE_MS / 1000} s after ${files.join(', ')}: ${open}`);
    process.exit(1);
  }, HANDLE_GRACE_MS).unref();
}
