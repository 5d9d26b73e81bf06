/**
 * The ingest thread's scheduling priority: nice 10 on Linux, where each thread has a nice value
 * of its own (setpriority(2) on the calling thread), so the HTTP thread keeps the same priority.
 * On a core both threads want, requests come first and ingest still gets about a tenth of it
 * (the kernel's weights for nice 0 and 10 are 1024 and 110); on an idle core, or with a core of
 * its own, ingest runs at full speed. Elsewhere the call would lower the whole process, so
 * nothing changes. On stop the thread asks for its old priority back (allowed where the process
 * may raise priorities, e.g. as root), so finishing its last writes is not starved by the load;
 * the HTTP thread raises it too as it asks it to stop, since a thread starved at nice 10 may
 * take minutes to turn its event loop and read the request.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { getPriority, setPriority } from 'node:os';

export const INGEST_THREAD_NICE = 10;
export const INGEST_THREAD_NAME = 'pricing-ingest';

/** Lowers the calling thread to `nice` (never raises it); false where that is not possible. */
export function lowerThreadPriority(nice = INGEST_THREAD_NICE): boolean {
  if (process.platform !== 'linux') return false;
  return trySetPriority(Math.max(getPriority(), nice));
}

/** Returns the calling thread to `nice`; false where the process may not raise priorities. */
export function restoreThreadPriority(nice: number): boolean {
  if (process.platform !== 'linux') return false;
  return trySetPriority(nice);
}

function trySetPriority(nice: number): boolean {
  try {
    setPriority(nice);
    return true;
  } catch {
    return false;
  }
}

/**
 * Names the calling thread (Linux `comm`, at most 15 bytes; /proc/thread-self is the caller),
 * so `top -H` and per-thread CPU figures tell it apart; false where that is not possible.
 */
export function nameThread(name: string): boolean {
  if (process.platform !== 'linux') return false;
  try {
    writeFileSync('/proc/thread-self/comm', name.slice(0, 15));
    return true;
  } catch {
    return false;
  }
}

/** Ids of this process's threads named `name` (Linux `comm`). */
function threadsNamed(name: string): number[] {
  return readdirSync('/proc/self/task')
    .filter((tid) => {
      try {
        return readFileSync(`/proc/self/task/${tid}/comm`, 'utf8').trim() === name;
      } catch {
        return false;
      }
    })
    .map(Number);
}

/**
 * Gives every thread of this process named `name` the caller's priority, from another thread: a
 * stop does not wait for a starved nice-10 thread to turn its event loop and restore itself.
 * The number of threads changed (0 where that is not possible).
 */
export function raiseThreadsNamed(name: string): number {
  if (process.platform !== 'linux') return 0;
  const nice = getPriority();
  return threadsNamed(name).filter((tid) => {
    try {
      setPriority(tid, nice);
      return true;
    } catch {
      return false;
    }
  }).length;
}
