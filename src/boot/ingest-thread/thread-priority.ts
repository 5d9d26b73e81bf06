/**
 * The ingest thread's scheduling priority: nice 10 on Linux, where each thread has a nice value
 * of its own (setpriority(2) on the calling thread), so the HTTP thread keeps the same priority.
 * On a core both threads want, requests come first and ingest still gets about a tenth of it
 * (the kernel's weights for nice 0 and 10 are 1024 and 110); on an idle core, or with a core of
 * its own, ingest runs at full speed. Elsewhere the call would lower the whole process, so
 * nothing changes.
 */
import { getPriority, setPriority } from 'node:os';

export const INGEST_THREAD_NICE = 10;

/** Lowers the calling thread to `nice` (never raises it); false where that is not possible. */
export function lowerThreadPriority(nice = INGEST_THREAD_NICE): boolean {
  if (process.platform !== 'linux') return false;
  try {
    setPriority(Math.max(getPriority(), nice));
    return true;
  } catch {
    return false;
  }
}
